#if canImport(Glibc)
import Glibc
#endif

/// The sample's options and its stand-in for launch work.
enum SampleOptions {
    static func milliseconds(_ name: String) -> Int {
        guard let text = getenv(name).map({ String(cString: $0) }) else { return 0 }
        guard let value = Int(text), (0...10_000).contains(value) else {
            fail("\(name) must be milliseconds from 0 to 10000, not '\(text)'")
        }
        return value
    }

    /// `milliseconds` of this thread's CPU time.
    static func spin(milliseconds: Int) -> Int {
        func now() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return time.tv_sec * 1_000_000_000 + time.tv_nsec
        }
        let end = now() + milliseconds * 1_000_000
        var value = 0
        while now() < end { for step in 0..<1000 { value = value &* 31 &+ step } }
        return value
    }

    static func fail(_ message: String) -> Never {
        let bytes = Array("vapor-launch-sample: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
}
