import LaunchProf

/// How well prewarming paid off: first uses by kind, and the items.
public struct PrewarmSummary: Sendable, CustomStringConvertible {
    /// Every registered item, in registration order.
    public let items: [PrewarmItemReport]

    /// Items whose first reader found the value already made.
    public var hits: Int { count { $0 == .hit } }
    /// Items whose first reader had to make the value itself (it had not started).
    public var misses: Int { count { $0 == .miss } }
    /// Items whose first reader waited for a `make` already under way.
    public var waits: Int {
        count {
            if case .wait = $0 { return true }
            return false
        }
    }
    /// Items whose value nobody has read yet.
    public var unused: Int { items.count { $0.firstUse == nil } }

    /// Total time callers spent waiting for items in progress.
    public var waitNanoseconds: UInt64 {
        items.reduce(0) { total, item in
            if case .wait(let nanoseconds) = item.firstUse { return total + nanoseconds }
            return total
        }
    }

    /// Hits among used items (0...1); `nil` when nothing was used yet.
    public var hitRate: Double? {
        let used = items.count - unused
        return used == 0 ? nil : Double(hits) / Double(used)
    }

    /// Items whose `make` exceeded their budget.
    public var overBudget: [PrewarmItemReport] { items.filter(\.isOverBudget) }

    /// One line, e.g. `prewarm: 3 items, 2 hits, 1 wait (4.210 ms), 0 misses, 0 unused, hit rate 67%`.
    public var description: String {
        let rate = hitRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "n/a"
        var line = "prewarm: \(items.count) items, \(hits) hits, \(waits) waits (\(formatMilliseconds(waitNanoseconds))), "
        line += "\(misses) misses, \(unused) unused, hit rate \(rate)"
        let slow = overBudget.map(\.name)
        if !slow.isEmpty { line += ", over budget: \(slow.joined(separator: ", "))" }
        return line
    }

    private func count(_ matches: (PrewarmFirstUse) -> Bool) -> Int {
        items.count { $0.firstUse.map(matches) ?? false }
    }
}
