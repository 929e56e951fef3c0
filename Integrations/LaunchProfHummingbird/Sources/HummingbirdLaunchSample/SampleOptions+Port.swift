import LaunchProfSampleSupport

extension SampleOptions {
    /// The port after `--port` in `arguments` (0, a free port, without it);
    /// one that is missing or not from 0 to 65535 ends the sample with an error.
    static func port(_ arguments: [String]) -> Int {
        guard let index = arguments.firstIndex(of: "--port") else { return 0 }
        guard index + 1 < arguments.count, let port = Int(arguments[index + 1]), (0...65535).contains(port) else {
            fail("--port needs a port number from 0 to 65535")
        }
        return port
    }
}
