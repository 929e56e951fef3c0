import LaunchSupport

/// What to launch and how to decide it has launched.
public struct LaunchTarget: Sendable, Equatable, Codable {
    /// Name shown in reports (`--command-name`, or the command line).
    public var name: String
    /// argv, exactly, as bytes (an argument need not be UTF-8); argv[0] is
    /// resolved through PATH when it has no '/'.
    public var arguments: [ByteString]
    /// Run through `/bin/sh -c` (only with `--shell`).
    public var useShell: Bool
    /// Extra environment for the child (added to the harness's own).
    public var environment: [String: String]
    /// The directory the program starts in; nil: launchprof's own.
    public var workingDirectory: String?
    /// When a launch counts as done.
    public var ready: ReadyProbe
    /// Extra files or directories to evict before cold runs.
    public var evictPaths: [String]
    /// A launch on demand (`--activate`): the program is started with a
    /// listening socket, and ready is the first request's whole response.
    public var activation: SocketActivation?

    /// A target named `name` that runs `arguments` (the program first).
    public init(
        name: String, arguments: [ByteString], useShell: Bool = false, environment: [String: String] = [:],
        workingDirectory: String? = nil, ready: ReadyProbe = .exit, evictPaths: [String] = [],
        activation: SocketActivation? = nil
    ) {
        self.name = name
        self.arguments = arguments
        self.useShell = useShell
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.ready = ready
        self.evictPaths = evictPaths
        self.activation = activation
    }

    /// A target named `name` that runs `arguments` (the program first), as UTF-8.
    public init(
        name: String, arguments: [String], useShell: Bool = false, environment: [String: String] = [:],
        workingDirectory: String? = nil, ready: ReadyProbe = .exit, evictPaths: [String] = [],
        activation: SocketActivation? = nil
    ) {
        self.init(
            name: name, arguments: arguments.map { ByteString($0) }, useShell: useShell, environment: environment,
            workingDirectory: workingDirectory, ready: ready, evictPaths: evictPaths, activation: activation)
    }
}

/// JSON holds a probe as the text `--ready` takes (`"port:8080"`), so results
/// and config files read the same.
extension ReadyProbe: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try ReadyProbe(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
