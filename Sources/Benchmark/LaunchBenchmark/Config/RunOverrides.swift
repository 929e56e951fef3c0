import LaunchEngine

/// Command-line settings that replace a config file's, for every target.
public struct RunOverrides: Sendable, Equatable {
    /// Page-cache modes for every target.
    public var modes: [LaunchMode]?
    /// Warm-up runs for every target.
    public var warmup: Int?
    /// The stopping rule for every target.
    public var stopping: StoppingRule?
    /// The timeout for every target.
    public var timeout: Duration?
    /// The ready probe for every target.
    public var ready: ReadyProbe?
    /// Added to every target's own.
    public var evictPaths: [String]
    /// A launch on demand for every target (`--activate`); their ready
    /// probe becomes `response`.
    public var activation: SocketActivation?

    /// Overrides; nil leaves the config file's setting.
    public init(
        modes: [LaunchMode]? = nil, warmup: Int? = nil, stopping: StoppingRule? = nil, timeout: Duration? = nil,
        ready: ReadyProbe? = nil, evictPaths: [String] = [], activation: SocketActivation? = nil
    ) {
        self.modes = modes
        self.warmup = warmup
        self.stopping = stopping
        self.timeout = timeout
        self.ready = ready
        self.evictPaths = evictPaths
        self.activation = activation
    }

    /// `target` with these overrides' ready probe and activation.
    func apply(to target: inout LaunchTarget) {
        if let ready { target.ready = ready }
        if let activation {
            target.activation = activation
            target.ready = .response
        }
        target.evictPaths += evictPaths
    }
}
