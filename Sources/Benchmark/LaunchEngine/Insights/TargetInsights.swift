/// The insights for one target and mode of a results file, as
/// `launchprof explain --json` writes them.
package struct TargetInsights: Sendable, Equatable, Codable {
    /// The target's name.
    package var target: String
    /// Its page-cache mode (`warm`, `cold`).
    package var mode: String
    /// What explain found, most important first.
    package var insights: [LaunchInsight]

    /// The insights for `target` in `mode`.
    package init(target: String, mode: String, insights: [LaunchInsight]) {
        self.target = target
        self.mode = mode
        self.insights = insights
    }
}
