import Foundation
import LaunchSupport

extension LaunchAttribution {
    /// The parts whose changes add up to the explained change, largest
    /// first: with traced intervals, the contributing leaves of the launch
    /// path and the phases before main (disjoint in time); without, the
    /// contributing phases (consecutive, so disjoint too).
    package var countedContributors: [Part] {
        unexplained == nil ? contributors : contributors.filter(\.isCounted)
    }

    /// Contributing intervals off the launch path: work that changed but that
    /// the launch did not wait for (it can still slow the launch by taking CPU).
    package var offPathContributors: [Part] {
        contributors.filter { $0.kind == .interval && $0.thread == "off" }
    }

    /// What no counted part explains, as a sentence (with traced intervals,
    /// when it is at least 1% of the change); nil otherwise.
    package var unexplainedSentence: String? {
        guard let unexplained, totalChange != 0, abs(unexplained) >= 0.01 * abs(totalChange) else { return nil }
        let rest = countedContributors.isEmpty ? "" : "the rest, "
        return "\(rest)\(Self.signed(unexplained)) (\(Self.share(unexplained / totalChange))), is in no named part of the launch path"
    }

    /// Libraries (and other files of a cold launch) on one side only, as sentences.
    package var fileSentences: [String] {
        (files ?? []).filter { $0.isNew || $0.isGone }.map { file in
            let name = (file.path as NSString).lastPathComponent
            return file.isNew
                ? "new in the launch: \(name) (\(HumanUnits.bytes(file.bytesAfter ?? 0)) read from disk per cold launch)"
                : "no longer in the launch: \(name)"
        }
    }

    /// What the terminal says after a regression verdict: the counted
    /// contributors (three, then the others together), the unexplained rest
    /// (so that the shares add up to the change), work off the path that
    /// changed, and how much of the change was work on CPU (each named
    /// step's own, from the thread CPU time of the thread that ran it). A
    /// step named by its CPU time whose wall time did not resolve the change
    /// (``Part/isWallUnresolved``) is said by its CPU time's change.
    package var summaryLines: [String] {
        let prefix = "\(target) (\(mode.rawValue)): "
        let total = MetricChange.percent(baselineReady > 0 ? totalChange / baselineReady : 0)
        let fileLines = librarySentences.prefix(3).map { prefix + $0 }
        let counted = countedContributors, offPath = offPathContributors
        if counted.isEmpty && offPath.isEmpty {
            return [
                prefix + "no part of the launch changed beyond noise; the change of \(Self.signed(totalChange)) (\(total)) is unexplained"
            ] + fileLines + cpuLines
        }
        var lines: [String] = []
        for part in counted.prefix(3) {
            if part.isWallUnresolved, let onCPUChange = part.onCPUChange, let cpuPValue = part.cpuPValue {
                lines.append(
                    prefix + "\(part.name): its threads' CPU time \(Self.signed(onCPUChange)) (p \(Self.pText(cpuPValue))); "
                        + "its wall time \(Self.signed(part.change)) (p \(Self.pText(part.pValue))) did not resolve the change "
                        + "(other programs' share of the cores spreads wall times, not CPU times)")
                continue
            }
            let cpu =
                part.cpuSplit.map { ": \(Self.signed($0.onCPU)) on CPU, \(Self.signed($0.offCPU)) off CPU" }
                ?? (part.kind == .interval && pathCPUSplit != nil ? ": on or off CPU unknown" : "")
            lines.append(
                prefix + "\(part.name) \(Self.signed(part.change)) "
                    + "(\(Self.share(part.share)) of \(Self.signed(totalChange)), p \(Self.pText(part.pValue)))\(cpu)")
        }
        if counted.count > 3 {
            let others = counted.dropFirst(3)
            let change = others.reduce(0) { $0 + $1.change }
            lines.append(
                prefix + "\(others.count) more parts \(Self.signed(change)) "
                    + "(\(Self.share(totalChange != 0 ? change / totalChange : 0)) of \(Self.signed(totalChange)))")
        }
        if let unexplainedSentence { lines.append(prefix + unexplainedSentence) }
        for part in offPath.prefix(2) {
            lines.append(prefix + "\(part.name) \(Self.signed(part.change)): the launch did not wait for it, so it is not counted")
        }
        return lines + fileLines + cpuLines
    }
}
