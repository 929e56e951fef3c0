/// The CI verdict of a results document: did every target launch, meet its
/// budgets and not regress? Its exit status is what `launchprof run` and
/// `launchprof compare` exit with.
public struct GateVerdict: Sendable, Equatable {
    /// The budgets not met.
    public var failedBudgets: [BudgetEvaluation]
    /// The changes judged regressed against the baseline.
    public var regressions: [MetricChange]
    /// Targets (and modes) with a failed run: crash, timeout, non-zero exit.
    public var failedLaunches: [String]

    /// The verdict of `document`'s runs, budgets and comparison.
    public init(_ document: ResultsDocument) {
        failedBudgets = (document.budgets ?? []).filter { !$0.passed }
        regressions = document.comparison?.regressions ?? []
        failedLaunches = document.results.filter { $0.runs.contains { !$0.exit.isSuccess } }.map(\.label)
    }

    /// Documented in the README: success within budget and no regression,
    /// ``LaunchExitStatus/gateFailed`` for a budget exceeded or a regression,
    /// ``LaunchExitStatus/launchFailed`` when a target failed to launch (it
    /// wins, since its numbers cannot be trusted).
    public var exitStatus: LaunchExitStatus {
        if !failedLaunches.isEmpty { return .launchFailed }
        return failedBudgets.isEmpty && regressions.isEmpty ? .success : .gateFailed
    }

    /// "2 budgets exceeded, 1 regression" or "all 4 budgets met, no regression".
    public static func headline(_ document: ResultsDocument) -> String? {
        let verdict = GateVerdict(document)
        let budgets = document.budgets ?? []
        guard !budgets.isEmpty || document.comparison != nil else { return nil }
        var parts: [String] = []
        if !budgets.isEmpty {
            parts.append(
                verdict.failedBudgets.isEmpty
                    ? "all \(budgets.count) budget\(budgets.count == 1 ? "" : "s") met"
                    : "\(verdict.failedBudgets.count) of \(budgets.count) budget\(budgets.count == 1 ? "" : "s") exceeded")
        }
        if let comparison = document.comparison {
            let count = comparison.regressions.count
            parts.append(count == 0 ? "no regression" : "\(count) regression\(count == 1 ? "" : "s")")
            let improved = comparison.improvements.count
            if improved > 0 { parts.append("\(improved) improvement\(improved == 1 ? "" : "s")") }
            parts[parts.count - 1 - (improved > 0 ? 1 : 0)] += " against \(comparison.baseline)"
        }
        if !verdict.failedLaunches.isEmpty { parts.insert("\(verdict.failedLaunches.count) target(s) failed to launch", at: 0) }
        return parts.joined(separator: ", ")
    }
}
