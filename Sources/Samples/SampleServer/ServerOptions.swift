import Glibc

/// Command-line options of lp-sample-server.
struct ServerOptions {
    /// 0 lets the kernel pick a free port (printed once listening).
    var port = 0
    /// Size of the route table built at start-up: the launch's "work".
    var routes = 20_000

    static func parse(_ arguments: ArraySlice<String>) -> ServerOptions {
        var options = ServerOptions()
        var arguments = arguments
        func number(for flag: String, in range: ClosedRange<Int>) -> Int {
            guard let text = arguments.popFirst() else { fail("\(flag) needs a value") }
            guard let value = Int(text), range.contains(value) else {
                fail("\(flag) needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return value
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--port": options.port = number(for: argument, in: 0...65_535)
            case "--routes": options.routes = number(for: argument, in: 0...10_000_000)
            case "-h", "--help":
                print("usage: lp-sample-server [--port N] [--routes N]")
                exit(0)
            default: fail("unknown argument '\(argument)' (try --help)")
            }
        }
        return options
    }
}

/// Prints `message` to stderr and exits with status 2.
func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-server: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}
