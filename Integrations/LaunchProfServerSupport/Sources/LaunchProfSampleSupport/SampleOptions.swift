#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A sample server's options (from its environment and arguments) and its
/// stand-in for launch work; its errors are named after the program
/// (hummingbird-launch-sample, vapor-launch-sample: its `argv[0]`'s last part).
public enum SampleOptions {
    /// The environment variable `name` as milliseconds from 0 to 10000, 0
    /// when unset; any other value ends the sample with an error naming it.
    public static func milliseconds(_ name: String) -> Int {
        guard let text = getenv(name).map({ String(cString: $0) }) else { return 0 }
        guard let value = Int(text), (0...10_000).contains(value) else {
            fail("\(name) must be milliseconds from 0 to 10000, not '\(text)'")
        }
        return value
    }

    /// `milliseconds` of this thread's CPU time.
    public static func spin(milliseconds: Int) -> Int {
        func now() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
        }
        let end = now() + milliseconds * 1_000_000
        var value = 0
        while now() < end { for step in 0..<1000 { value = value &* 31 &+ step } }
        return value
    }

    /// Writes "program: message" to standard error and exits with status 2.
    public static func fail(_ message: String) -> Never {
        let bytes = Array("\(program): \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(2)
    }

    /// The last part of `argv[0]`, at most 64 characters ("sample" when empty).
    static var program: String {
        let name = CommandLine.arguments.first?.split(separator: "/").last.map { String($0.prefix(64)) } ?? ""
        return name.isEmpty ? "sample" : name
    }
}
