import Foundation
import LaunchSupport

/// Where the launch's CPU went differently between a baseline's profile
/// and the current one (`run --profile` on both sides): each function's
/// self and total samples per launch, before and after, and a differential
/// flame graph: the current profile's shape, each frame red where it grew
/// and blue where it shrank (as Brendan Gregg's difffolded.pl colours it),
/// the deeper the colour the larger the change.
package struct ProfileDifference: Sendable, Equatable, Codable {
    /// One function's change.
    package struct Function: Sendable, Equatable, Codable {
        /// The function's name.
        package var name: String
        /// Samples per launch with it on top of the stack (self), before and after.
        package var selfBefore: Double
        /// Self samples per launch now.
        package var selfAfter: Double
        /// Samples per launch with it anywhere on the stack (total), before.
        package var totalBefore: Double
        /// Total samples per launch now.
        package var totalAfter: Double

        /// selfAfter − selfBefore.
        package var selfChange: Double { selfAfter - selfBefore }
        /// totalAfter − totalBefore.
        package var totalChange: Double { totalAfter - totalBefore }
    }

    /// The target profiled.
    package var target: String
    /// Samples per launch on each side.
    package var samplesBefore: Double
    /// Samples per launch now.
    package var samplesAfter: Double
    /// The functions whose self samples changed most (15, largest first),
    /// then those whose total samples changed most (up to 15 more).
    package var functions: [Function]
    /// The differential flame graph's file, when written.
    package var flameGraph: String?

    /// Folded stacks parsed: (frames root first, weight).
    static func parseFolded(_ text: String) -> [(frames: [String], weight: Double)] {
        text.split(separator: "\n").compactMap { line in
            guard let space = line.lastIndex(of: " "), let weight = Double(line[line.index(after: space)...]) else { return nil }
            return (line[..<space].split(separator: ";").map(String.init), weight)
        }
    }

    /// The difference of two profiles' folded stacks, each divided by its number of launches.
    package static func between(
        target: String, before: String, launchesBefore: Int, after: String, launchesAfter: Int
    ) -> ProfileDifference {
        let old = parseFolded(before).map { ($0.frames, $0.weight / Double(max(launchesBefore, 1))) }
        let new = parseFolded(after).map { ($0.frames, $0.weight / Double(max(launchesAfter, 1))) }
        func tally(_ stacks: [([String], Double)]) -> (own: [String: Double], total: [String: Double], sum: Double) {
            var own: [String: Double] = [:], total: [String: Double] = [:], sum = 0.0
            for (frames, weight) in stacks {
                sum += weight
                if let leaf = frames.last { own[leaf, default: 0] += weight }
                for name in Set(frames) { total[name, default: 0] += weight }
            }
            return (own, total, sum)
        }
        let a = tally(old), b = tally(new)
        let names = Set(a.total.keys).union(b.total.keys)
        let functions = names.map { name in
            Function(
                name: name, selfBefore: a.own[name] ?? 0, selfAfter: b.own[name] ?? 0,
                totalBefore: a.total[name] ?? 0, totalAfter: b.total[name] ?? 0)
        }
        .filter { $0.selfChange != 0 || $0.totalChange != 0 }
        // The largest changes of self samples (where the CPU went) and of
        // total samples (which callers it went through), 15 of each.
        let bySelf = functions.sorted { (abs($0.selfChange), $1.name) > (abs($1.selfChange), $0.name) }.prefix(15)
        let byTotal = functions.sorted { (abs($0.totalChange), $1.name) > (abs($1.totalChange), $0.name) }.prefix(15)
        var kept: [Function] = Array(bySelf)
        for function in byTotal where !kept.contains(where: { $0.name == function.name }) { kept.append(function) }
        return ProfileDifference(target: target, samplesBefore: a.sum, samplesAfter: b.sum, functions: kept, flameGraph: nil)
    }

    /// What the terminal says: the functions whose self samples changed most.
    package var summaryLines: [String] {
        functions.prefix(3).filter { $0.selfChange != 0 }.map { function in
            "\(target): \(function.name) \(function.selfChange > 0 ? "+" : "")\(HumanUnits.fixed(function.selfChange, decimals: 1)) "
                + "samples per launch on CPU (self; \(HumanUnits.fixed(function.selfBefore, decimals: 1)) → "
                + "\(HumanUnits.fixed(function.selfAfter, decimals: 1)))"
        }
    }
}
