import LaunchEngine
import LaunchSupport

/// A gate's verdict as the terminal shows it: one line that says the
/// verdict with its interval, then how it was reached.
package enum GateReport {
    /// "regressed: head +5.2% [+3.9%, +6.6%] against base, beyond the +2% threshold …",
    /// naming the trimmed mean when its guard decided or held the verdict.
    package static func summary(
        verdict: ChangeVerdict?, stop: GateStop, final: GateLook?, threshold: Double, elapsed: Double,
        smallestResolvable: Double?, sameCPUPairs: Bool = true
    ) -> String {
        let limit = percent(threshold, signed: false)
        let interval = final.map { look in
            "head \(percent(look.change)) [\(percent(look.low)), \(percent(look.high))] against base "
                + "(\(HumanUnits.level(look.coverage))% interval, \(look.pairs) \(sameCPUPairs ? "same-CPU " : "")pairs, "
                + "\(HumanUnits.significant(elapsed)) s)"
        }
        let trimmed = final.flatMap { look in
            look.trimmedChange.map {
                "the pairs' trimmed mean \(percent($0)) [\(percent(look.trimmedLow ?? $0)), \(percent(look.trimmedHigh ?? $0))]"
            }
        }
        // What the median-type interval alone says: when it is not the
        // verdict, the trimmed mean's decided.
        let median = final.flatMap { SequentialDecisionRule.verdict(low: $0.low, high: $0.high, threshold: threshold) }
        switch verdict {
        case .regressed?:
            if let trimmed, median != .regressed {
                return "regressed: \(trimmed) lies above +\(limit); \(interval ?? "head slower")"
            }
            return "regressed: \(interval ?? "head slower") lies above +\(limit)"
        case .improved?:
            if let trimmed, median != .improved {
                return "improved: \(trimmed) lies below −\(limit); \(interval ?? "head faster")"
            }
            return "improved: \(interval ?? "head faster") lies below −\(limit)"
        case .unchanged?:
            return "unchanged: \(interval ?? "no change") lies within ±\(limit)" + (trimmed.map { ", and so does \($0)" } ?? "")
        case .inconclusive?:
            if let final, let trimmed, final.isHeldByTrimmedMean(threshold: threshold) {
                return "inconclusive (\(stop.description)): \(interval ?? "") lies within ±\(limit) but \(trimmed) does not: "
                    + "the launch may move in steps that the median misses (docs/gate.md, \"The trimmed mean's guard\")"
            }
            let resolvable: String
            if let final, final.isShortOfConfidence {
                resolvable =
                    "; \(final.pairs) pairs cannot give a \(HumanUnits.level(final.confidence))% interval, "
                    + "so no change could be resolved"
            } else {
                resolvable =
                    smallestResolvable.map { "; the smallest change this session could resolve was ±\(percent($0, signed: false))" } ?? ""
            }
            let mean = trimmed.map { "; \($0)" } ?? ""
            return "inconclusive (\(stop.description)): \(interval ?? "too few pairs") straddles ±\(limit)\(mean)\(resolvable)"
        case nil:
            return "no verdict: \(stop.description)"
        }
    }

    /// The summary line with the instruction counts' say: when they alone
    /// made the gate regressed, the line leads with them; when they
    /// disagree with the verdict, a clause says how; unchanged when they agree.
    package static func summary(
        _ timeSummary: String, verdict: ChangeVerdict?, time: GateLook?, instructions counted: GateLook, threshold: Double
    ) -> String {
        let interval = "instructions to ready \(percent(counted.change)) [\(percent(counted.low)), \(percent(counted.high))]"
        let limit = percent(threshold, signed: false)
        if verdict == .regressed, counted.verdict == .regressed, time?.verdict != .regressed {
            let timing = time.map { " (time to ready: head \(percent($0.change)) [\(percent($0.low)), \(percent($0.high))])" } ?? ""
            return "regressed: \(interval) lie above +\(limit)\(timing)"
        }
        guard let verdict, counted.verdict != verdict else { return timeSummary }
        switch counted.verdict {
        case .regressed?: return timeSummary + "; \(interval) above +\(limit)"
        case .inconclusive?, nil: return timeSummary + "; \(interval) undecided at ±\(limit)"
        case .unchanged?: return timeSummary + "; \(interval) within ±\(limit)"
        case .improved?: return timeSummary + "; \(interval) below −\(limit)"
        }
    }

    /// The terminal report: the summary line, then the looks, the noise
    /// floor, the CPUs and the instructions.
    package static func text(_ document: GateDocument) -> String {
        var lines = [document.summary]
        if let base = document.baseMedian, let head = document.headMedian {
            lines.append(
                "  medians: base \(HumanUnits.duration(base)), head \(HumanUnits.duration(head)) "
                    + "(\(document.baseRuns.count) + \(document.headRuns.count) runs, ABBA order)")
        }
        if !document.looks.isEmpty {
            let looks = document.looks.map { "\($0.pairs): [\(percent($0.low)), \(percent($0.high))]" }
            lines.append("  looks (pairs: interval): " + looks.joined(separator: ", "))
        }
        if let final = document.looks.last, let mean = final.trimmedChange, let low = final.trimmedLow, let high = final.trimmedHigh {
            lines.append(
                "  trimmed mean of the pairs (the guard; docs/gate.md, \"The trimmed mean's guard\"): "
                    + "\(percent(mean)) [\(percent(low)), \(percent(high))] at the last look")
        }
        if let floor = document.noiseFloor {
            lines.append(
                "  noise floor, base against itself: \(percent(floor.change)) [\(percent(floor.low)), \(percent(floor.high))] "
                    + "over \(floor.pairs) pairs, one pair's spread ±\(percent(floor.spread, signed: false)); "
                    + "minimum detectable effect \(percent(floor.minimumDetectableEffect, signed: false)) (80% power)")
        }
        if !document.pairsByCPU.isEmpty || document.pairsAcrossCPUs != nil {
            var cpus = document.pairsByCPU.sorted { $0.key < $1.key }.map { "\($0.key == "-1" ? "unknown" : "cpu \($0.key)"): \($0.value)" }
            if let across = document.pairsAcrossCPUs { cpus.append("across CPUs: \(across)") }
            let how = document.pairsAcrossCPUs == nil ? "" : " (neighbours paired on any CPU: the launch spans CPUs)"
            lines.append("  pairs by CPU\(how): \(cpus.joined(separator: ", ")); \(document.unpaired) runs unpaired")
        }
        if let choice = document.affinityChoice { lines.append("  " + affinityLine(choice)) }
        if let resolve = resolving(document) { lines.append("  " + resolve) }
        if let counted = document.instructions {
            let verdict = counted.verdict.map { " (\($0))" } ?? ""
            lines.append("  instructions: head \(percent(counted.change)) [\(percent(counted.low)), \(percent(counted.high))]\(verdict)")
        }
        if let why = document.why {
            lines.append("  why the head is slower (\(whySource(why))):")
            lines += why.lines.map { "    " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `--affinity auto`'s choice: "affinity auto: pinned to CPU 0: the
    /// launch is 9.1% slower unpinned than on its fastest CPU: … (pilot: 72
    /// runs in 3.1 s; medians base / head: unpinned 25.9 ms / 26.0 ms, cpu
    /// 0 …)".
    package static func affinityLine(_ choice: AffinityChoice) -> String {
        let outcome = choice.chosen.map { "pinned to CPU \($0)" } ?? "unpinned"
        let medians = choice.trials.map {
            "\($0.cpus.map { "cpu \($0)" } ?? "unpinned") \(HumanUnits.duration($0.baseMedian)) / \(HumanUnits.duration($0.headMedian))"
        }
        return "affinity auto: \(outcome): \(choice.reason) (pilot: \(choice.runs) runs in "
            + "\(HumanUnits.fixed(choice.elapsed, decimals: 1)) s; medians base / head: \(medians.joined(separator: ", ")))"
    }

    /// For an inconclusive gate, what would have decided it: "to decide:
    /// the estimate lies 0.62% above +2%; at this pace (8.1 pairs a second)
    /// the interval would narrow that far after about 2.8 min of measuring
    /// (--max-time 171)", and, unpinned, that pinning may narrow it sooner.
    package static func resolving(_ document: GateDocument) -> String? {
        guard let seconds = document.timeToResolve, seconds.isFinite, let final = document.looks.last, document.elapsed > 0
        else { return nil }
        let limit = percent(document.threshold, signed: false)
        let change = final.pending(threshold: document.threshold).change
        let distance = abs(abs(change) - document.threshold)
        let side = abs(change) < document.threshold ? "inside ±\(limit)" : change > 0 ? "above +\(limit)" : "below −\(limit)"
        let estimate = final.isHeldByTrimmedMean(threshold: document.threshold) ? "the trimmed mean" : "the estimate"
        let pace = Double(final.pairs) / document.elapsed
        var line =
            "to decide: \(estimate) lies \(HumanUnits.fixed(distance * 100, decimals: 2))% \(side); at this pace "
            + "(\(HumanUnits.significant(pace)) pairs a second) the interval would narrow that far after about "
        if seconds <= 3600 {
            let whole = Int(seconds.rounded(.up))
            let time = whole < 120 ? "\(whole) s" : "\(HumanUnits.fixed(seconds / 60, decimals: 1)) min"
            line += time + " of measuring (--max-time \(whole))"
        } else {
            let hours = seconds / 3600
            line +=
                (hours < 48 ? "\(HumanUnits.fixed(hours, decimals: 1)) h" : "\(HumanUnits.significant(hours / 24)) days")
                + " of measuring: a change this near the threshold is better judged with another --threshold"
        }
        if document.affinity == nil, document.affinityChoice == nil {
            line += "; pinned (--affinity), a launch whose threads seldom run at once may narrow it sooner (docs/gate.md, \"Pinning\")"
        }
        return line
    }

    /// What the Why was made from: "the gate's runs, 20 traced runs and 5
    /// audited launches of each side".
    package static func whySource(_ why: GateWhy) -> String {
        var parts = ["the gate's runs"]
        if why.tracedRuns > 0 { parts.append("\(why.tracedRuns) traced run\(why.tracedRuns == 1 ? "" : "s")") }
        if why.auditedLaunches > 0 { parts.append("\(why.auditedLaunches) audited launches") }
        let last = parts.removeLast()
        return (parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last) + (parts.isEmpty ? "" : " of each side")
    }

    /// "+5.2%", "−0.3%" (or without a sign).
    package static func percent(_ fraction: Double, signed: Bool = true) -> String {
        let value = fraction * 100
        let digits = abs(value) < 10 ? 1 : 0
        let text = HumanUnits.fixed(abs(value), decimals: digits) + "%"
        guard signed else { return text }
        return (value < 0 ? "−" : "+") + text
    }
}
