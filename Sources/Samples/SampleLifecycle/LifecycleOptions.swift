import Glibc

/// Command-line options of lp-sample-lifecycle.
struct LifecycleOptions {
    var port = 0
    var stateDirectory: String?
    var appVersion = "1"
    var maximumAgeSeconds: Int?
    var terminateBudgetMilliseconds: Int?
    var suspendBudgetMilliseconds: Int?
    var slowTerminateMilliseconds = 0
    var slowSuspendMilliseconds = 0
    var slowReloadMilliseconds = 0
    var heartbeatMilliseconds = 100
    var stateBytes = 0
    var exitStatus = false
    var greetingFile: String?
    var printStateDirectory = false

    static let usage = """
        usage: lp-sample-lifecycle [--port N] [--state-dir DIR] [--app-version V] [--max-age S]
                                   [--terminate-budget MS] [--suspend-budget MS] [--slow-terminate MS]
                                   [--slow-suspend MS] [--slow-reload MS] [--heartbeat MS] [--state-bytes N]
                                   [--exit-status]
                                   [--greeting FILE] [--print-state-dir]
        """

    static func parse(_ arguments: ArraySlice<String>) -> LifecycleOptions {
        var options = LifecycleOptions()
        var arguments = arguments
        func value(for flag: String) -> String {
            guard let text = arguments.popFirst() else { fail("\(flag) needs a value") }
            return text
        }
        func number(for flag: String, in range: ClosedRange<Int>) -> Int {
            let text = value(for: flag)
            guard let number = Int(text), range.contains(number) else {
                fail("\(flag) needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return number
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--port": options.port = number(for: argument, in: 0...65_535)
            case "--state-dir": options.stateDirectory = value(for: argument)
            case "--app-version": options.appVersion = value(for: argument)
            case "--max-age": options.maximumAgeSeconds = number(for: argument, in: 0...100_000_000)
            case "--terminate-budget": options.terminateBudgetMilliseconds = number(for: argument, in: 0...3_600_000)
            case "--suspend-budget": options.suspendBudgetMilliseconds = number(for: argument, in: 0...3_600_000)
            case "--slow-terminate": options.slowTerminateMilliseconds = number(for: argument, in: 0...3_600_000)
            case "--slow-suspend": options.slowSuspendMilliseconds = number(for: argument, in: 0...3_600_000)
            case "--slow-reload": options.slowReloadMilliseconds = number(for: argument, in: 0...3_600_000)
            case "--heartbeat": options.heartbeatMilliseconds = number(for: argument, in: 1...60_000)
            case "--state-bytes": options.stateBytes = number(for: argument, in: 0...2_000_000_000)
            case "--exit-status": options.exitStatus = true
            case "--greeting": options.greetingFile = value(for: argument)
            case "--print-state-dir": options.printStateDirectory = true
            case "-h", "--help":
                say(usage)
                exit(0)
            default: fail("unknown argument '\(argument)' (try --help)")
            }
        }
        return options
    }
}

/// Writes one line to stdout with a single write(2): unbuffered, so a test
/// reading the pipe sees it at once, and lines from two threads never mix.
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

/// Prints `message` to stderr and exits with status 2.
func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-lifecycle: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}
