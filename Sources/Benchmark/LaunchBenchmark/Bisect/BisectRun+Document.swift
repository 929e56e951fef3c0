import LaunchEngine
import LaunchReports
import LaunchSupport

extension BisectRun {
    /// The bisect's document: `conclusion` nil when it was interrupted.
    func document(conclusion: BisectConclusion?, search: BisectSearch, elapsed: Double) -> BisectDocument {
        let commits = range.commits
        let skipped = search.skipped.keys.sorted().map { BisectSkip(commit: commits[$0], reason: search.skipped[$0] ?? "") }
        var firstSlow: BisectCommit?
        var candidates: [BisectCommit] = []
        var effect: GateLook?
        var effectSource: String?
        var effectGate: GateDocument?
        let summary: String
        let stepCount = "\(steps.count) step\(steps.count == 1 ? "" : "s")"
        let skips = skipped.isEmpty ? "" : ", \(skipped.count) commit\(skipped.count == 1 ? "" : "s") skipped"
        let time = "\(HumanUnits.significant(elapsed)) s"
        switch conclusion {
        case .found(let index)?:
            let commit = commits[index]
            firstSlow = commit
            if let (number, source) = effectOrigin(of: index), let gate = gates[number] {
                effect = gate.looks.last
                effectSource = source
                effectGate = gate
            }
            let change =
                effect.map { " \(GateReport.percent($0.change)) [\(GateReport.percent($0.low)), \(GateReport.percent($0.high))]" } ?? ""
            summary =
                "first slow commit: \(commit.line)\(change)\(effectSource.map { ", \($0)" } ?? ""); "
                + "\(commits.count) commits, \(stepCount)\(skips), \(time)"
        case .ambiguous(let indices)?:
            candidates = indices.map { commits[$0] }
            summary =
                "the first slow commit is one of \(indices.count) (skipped commits leave them apart): "
                + candidates.map { String($0.hash.prefix(12)) }.joined(separator: ", ") + "; \(stepCount)\(skips), \(time)"
        case .notSlower(let verdict)?:
            summary =
                "--bad \(range.bad.hash.prefix(12)) is not slower than --good \(range.good.hash.prefix(12)) (\(verdict)): nothing to bisect; "
                + (steps.last?.summary ?? "")
        case .inconclusive(let index, let lastGood, let slow)?:
            let low = lastGood < 0 ? range.good : commits[lastGood]
            let about =
                index.map { "commit \(commits[$0].hash.prefix(12)) stayed inconclusive against good, with a longer budget and against bad" }
                ?? "the confirmation (bad against good) stayed inconclusive with a longer budget"
            summary =
                "inconclusive: \(about); the first slow commit is after \(low.hash.prefix(12)) and at or before "
                + "\(commits[slow].hash.prefix(12)); \(stepCount)\(skips), \(time)"
        case .untestable(let reason)?:
            summary = "the bad and good revisions could not be measured side by side: \(reason)"
        case nil:
            let low = search.lastGood < 0 ? range.good : commits[search.lastGood]
            summary =
                "interrupted after \(stepCount): the first slow commit is after \(low.hash.prefix(12)) and at or before "
                + "\(commits[search.firstSlow].hash.prefix(12))"
        }
        return BisectDocument(
            good: range.good, bad: range.bad, commits: commits.count, threshold: session.settings.threshold,
            outcome: conclusion?.outcome ?? "interrupted",
            exitStatus: conclusion?.exitStatus ?? LaunchExitStatus.interrupted.rawValue, summary: summary, firstSlow: firstSlow,
            candidates: candidates, skipped: skipped, effect: effect, effectSource: effectSource, effectGate: effectGate, steps: steps,
            elapsed: elapsed)
    }

    /// The step whose gate gives the first slow commit's effect, and what
    /// it was measured against: its gate against its parent, else the last
    /// gate of it against the good revision (its parent when it is the first).
    func effectOrigin(of index: Int) -> (Int, String)? {
        let commit = range.commits[index]
        if let number = effectStep {
            return (number, "against its parent \(range.commits[index - 1].hash.prefix(12)) (step \(number))")
        }
        let against = steps.filter { $0.head.hash == commit.hash && $0.base.hash == range.good.hash && $0.look != nil }
        guard let step = against.last(where: { $0.verdict == .regressed }) ?? against.last else { return nil }
        let parent = index == 0 ? "" : ", not its parent"
        return (step.number, "against the good revision \(range.good.hash.prefix(12))\(parent) (step \(step.number), which decided it)")
    }
}
