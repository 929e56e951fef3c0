/// The insights for one target and mode of a results file, as
/// `launchprof explain --json` writes them.
public struct TargetInsights: Sendable, Equatable, Codable {
    /// The target's name.
    public var target: String
    /// Its page-cache mode (`warm`, `cold`).
    public var mode: String
    /// What explain found, most important first.
    public var insights: [LaunchInsight]

    /// The insights for `target` in `mode`.
    public init(target: String, mode: String, insights: [LaunchInsight]) {
        self.target = target
        self.mode = mode
        self.insights = insights
    }
}
