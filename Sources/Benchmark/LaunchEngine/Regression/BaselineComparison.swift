import LaunchAnalysis

/// The comparison of a run with a baseline: stored in results
/// (`comparison`) and shown in every report.
public struct BaselineComparison: Sendable, Equatable, Codable {
    /// The baseline's name or path, as given.
    public var baseline: String
    /// When and by which launchprof version the baseline was measured.
    public var baselineDate: String
    /// The launchprof version that measured the baseline.
    public var baselineToolVersion: String
    /// Another machine, another tool version, targets missing on one side.
    public var warnings: [ResultWarning]
    /// One change per target, mode, metric and statistic compared, in the current results' order.
    public var changes: [MetricChange]
    /// The target that times were compared relative to, when it was measured
    /// on both sides (`changes` then carry it as their `reference`).
    public var reference: String?
    /// The reference's own changes, as measured: how much the machine
    /// drifted between the baseline and now. They never gate.
    public var drift: [MetricChange]?
    /// Why each target's time to ready changed: by phase and by interval
    /// (`LaunchAttribution`), for every target and mode on both sides.
    package var attributions: [LaunchAttribution]?
    /// Where the launch's CPU went differently, by function, for targets
    /// profiled on both sides (`run --profile`, the baseline saved with its profiles).
    package var profileDifferences: [ProfileDifference]?
    /// What the baseline was, exactly: `ResultsDocument/fingerprint` of
    /// the document compared with (nil in results saved before it was kept).
    public var baselineFingerprint: String?

    /// A comparison with the baseline named `baseline`, measured on `baselineDate`.
    package init(
        baseline: String, baselineDate: String, baselineToolVersion: String, warnings: [ResultWarning], changes: [MetricChange],
        reference: String? = nil, drift: [MetricChange]? = nil, attributions: [LaunchAttribution]? = nil,
        baselineFingerprint: String? = nil
    ) {
        self.baselineFingerprint = baselineFingerprint
        self.baseline = baseline
        self.baselineDate = baselineDate
        self.baselineToolVersion = baselineToolVersion
        self.warnings = warnings
        self.changes = changes
        self.reference = reference
        self.drift = drift
        self.attributions = attributions
    }

    /// The attributions of the targets that regressed, once each, in the
    /// order of their regressions: what the reports explain.
    package var regressedAttributions: [LaunchAttribution] {
        var shown: [LaunchAttribution] = []
        for regressed in regressions where !shown.contains(where: { $0.target == regressed.target && $0.mode == regressed.mode }) {
            if let attribution = attribution(of: regressed.target, regressed.mode) { shown.append(attribution) }
        }
        return shown
    }

    /// The attribution of `target` in `mode`, if there is one.
    package func attribution(of target: String, _ mode: LaunchMode) -> LaunchAttribution? {
        attributions?.first { $0.target == target && $0.mode == mode }
    }

    /// The changes judged regressed: worse beyond the threshold and significant.
    public var regressions: [MetricChange] { changes.filter { $0.verdict == .regressed } }
    /// The changes judged improved: better beyond the threshold and significant.
    public var improvements: [MetricChange] { changes.filter { $0.verdict == .improved } }
}
