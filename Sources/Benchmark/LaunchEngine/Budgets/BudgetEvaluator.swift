import LaunchSupport

/// Checks budgets against measured results.
package struct BudgetEvaluator: Sendable {
    /// The budgets to check.
    package var budgets: [Budget]

    /// An evaluator of `budgets`.
    package init(budgets: [Budget]) { self.budgets = budgets }

    /// One evaluation per budget and per mode it applies to, in budget order.
    /// A budget whose target is not among the results is skipped (the run
    /// did not select it); one whose metric was not measured fails.
    package func evaluate(_ results: [BenchmarkResult]) -> [BudgetEvaluation] {
        var evaluations: [BudgetEvaluation] = []
        for budget in budgets {
            for result in results where result.target.name == budget.target && (budget.mode ?? result.mode) == result.mode {
                evaluations.append(evaluate(budget, result, in: results))
            }
        }
        return evaluations
    }

    private func evaluate(_ budget: Budget, _ result: BenchmarkResult, in results: [BenchmarkResult]) -> BudgetEvaluation {
        let unit = budget.metric.unit
        var evaluation = BudgetEvaluation(
            target: result.target.name, mode: result.mode, metric: budget.metric.key, statistic: budget.statistic,
            limit: budget.limit.description, limitValue: nil, observed: nil, passed: false, message: "",
            source: budget.source)
        guard let observed = Self.statistic(budget.statistic, of: budget.metric, in: result) else {
            evaluation.message = "not measured: \(Self.unmeasured(budget.metric, result))"
            return evaluation
        }
        evaluation.observed = observed
        let upperBound = Self.isUpperBound(budget.metric, in: result)
        switch budget.limit {
        case .absolute(let quantity):
            evaluation.limitValue = quantity.value
            evaluation.passed = observed <= quantity.value
            evaluation.message =
                "\(HumanUnits.format(observed, unit: unit)) \(evaluation.passed ? "<=" : ">") "
                + "\(HumanUnits.format(quantity.value, unit: unit))"
            if upperBound {
                // An upper bound within the limit proves the budget; above it, it proves nothing.
                evaluation.message +=
                    evaluation.passed
                    ? " (an upper bound: launchprof's own peak)"
                    : ": cannot be checked, the runs' max RSS is launchprof's own peak (an upper bound) and the limit is below it"
            }
        case let .ratio(factor, reference, referenceMetric):
            evaluation.reference = reference
            let referenceMetric = referenceMetric ?? budget.metric
            guard let referenceResult = results.first(where: { $0.target.name == reference && $0.mode == result.mode }) else {
                evaluation.message = "reference '\(reference)' was not measured in \(result.mode.rawValue) mode in this run"
                return evaluation
            }
            guard let referenceValue = Self.statistic(budget.statistic, of: referenceMetric, in: referenceResult) else {
                evaluation.message =
                    "reference '\(reference)' not measured: \(Self.unmeasured(referenceMetric, referenceResult))"
                    + (referenceMetric == budget.metric
                        ? "; name a metric it has, e.g. '\(HumanUnits.significant(factor))x \(reference) wall_to_exit'" : "")
                return evaluation
            }
            guard referenceValue > 0 else {
                evaluation.message = "reference '\(reference)' has \(budget.statistic) 0, so no ratio exists"
                return evaluation
            }
            if upperBound || Self.isUpperBound(referenceMetric, in: referenceResult) {
                evaluation.message =
                    "cannot be checked: max RSS is launchprof's own peak (an upper bound) in "
                    + "\(upperBound ? result.label : referenceResult.label), so the ratio means nothing"
                return evaluation
            }
            let ratio = observed / referenceValue
            evaluation.ratio = ratio
            evaluation.limitValue = factor * referenceValue
            evaluation.passed = ratio <= factor
            evaluation.message =
                "\(HumanUnits.format(observed, unit: unit)) = \(HumanUnits.fixed(ratio, decimals: 2))x "
                + "\(reference) (\(HumanUnits.format(referenceValue, unit: unit))) \(evaluation.passed ? "<=" : ">") "
                + "\(HumanUnits.significant(factor))x"
        }
        return evaluation
    }

    /// The statistic over the successful runs that measured the metric.
    static func statistic(_ statistic: SummaryStatistic, of metric: Metric, in result: BenchmarkResult) -> Double? {
        statistic.value(of: result.runs.filter(\.exit.isSuccess).compactMap { metric.value(in: $0) })
    }

    /// Whether the metric's values in these runs are upper bounds (max RSS
    /// at or below launchprof's own peak).
    static func isUpperBound(_ metric: Metric, in result: BenchmarkResult) -> Bool {
        metric == .maxRSS && result.runs.contains { $0.exit.isSuccess && $0.maxRSSIsUpperBound }
    }

    private static func unmeasured(_ metric: Metric, _ result: BenchmarkResult) -> String {
        let successful = result.runs.filter(\.exit.isSuccess).count
        if successful == 0 { return "\(result.label) had no successful run" }
        switch metric {
        case .milestone(let name): return "no successful run of \(result.label) reported milestone '\(name)'"
        case .processEntry, .main: return "\(result.label) is not traced (it does not link LaunchProf)"
        case .wallToExit: return "\(result.label) stays up after ready; it was stopped, not exited"
        default: return "\(result.label) has no value of \(metric.key)"
        }
    }
}
