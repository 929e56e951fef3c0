/// Commits in the order `git log` prints them (newest first), for placing
/// results by the commit they measured: a full hash or any unambiguous
/// prefix of at least four hex digits (CI's short labels) is found.
struct CommitOrder: Sendable {
    /// Hashes, lower-cased and sorted, with their age (0: the oldest).
    private let sorted: [(hash: String, age: Int)]

    /// The order of `log`, newest first.
    init(_ log: [String]) {
        sorted = log.enumerated().map { ($0.element.lowercased(), log.count - 1 - $0.offset) }.sorted { $0.hash < $1.hash }
    }

    /// The commit's age in the log (0 the oldest), or nil when no hash in
    /// the log starts with `commit`, or several do.
    func position(of commit: String) -> Int? {
        let prefix = commit.lowercased()
        guard prefix.count >= 4 else { return nil }
        // The first hash not below the prefix (binary search).
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].hash < prefix { low = middle + 1 } else { high = middle }
        }
        guard low < sorted.count, sorted[low].hash.hasPrefix(prefix) else { return nil }
        if low + 1 < sorted.count, sorted[low + 1].hash.hasPrefix(prefix) { return nil }
        return sorted[low].age
    }
}
