import Synchronization

/// What the sample server remembers across launches: how often it was
/// launched and how many requests it served. Saved as text lines
/// ("launches=3", "requests=12"), padded with `#` lines to a requested size.
final class ServerModel: Sendable {
    private struct Counts {
        var launches = 0
        var requests = 0
    }

    private let counts = Mutex(Counts())
    private let padding: Int

    init(restoring bytes: [UInt8]?, padding: Int) {
        self.padding = padding
        guard let bytes else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            counts.withLock { counts in
                if parts[0] == "launches" { counts.launches = value }
                if parts[0] == "requests" { counts.requests = value }
            }
        }
    }

    func launched() { counts.withLock { $0.launches += 1 } }
    func served() -> Int {
        counts.withLock {
            $0.requests += 1
            return $0.requests
        }
    }

    var summary: String { counts.withLock { "launches=\($0.launches) requests=\($0.requests)" } }

    /// The quick snapshot: the counters only.
    func quickState() -> [UInt8] { Array(counts.withLock { "launches=\($0.launches)\nrequests=\($0.requests)\n" }.utf8) }

    /// The complete snapshot: the counters and the padding.
    func completeState() -> [UInt8] {
        var bytes = quickState()
        if padding > bytes.count + 1 {
            bytes += [UInt8](repeating: UInt8(ascii: "#"), count: padding - bytes.count - 1)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
