import ArgumentParser
import LaunchBenchmark

/// `--activate` with `--request` or `--http-get`: one option group for `run`
/// and `gate`, parsed in one place.
struct ActivationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Launch on demand: listen here (tcp:PORT on 127.0.0.1, tcp:0 for a free port, or unix:PATH), start the program with the socket as systemd's socket activation does, and time the request that waited for the launch; ready is its whole response.",
            valueName: "endpoint"))
    var activate: String?

    @Option(
        help: ArgumentHelp(
            "With --activate: the bytes to send (\\r, \\n, \\t, \\\\ and \\xHH escapes); the response ends when the program closes the connection.",
            valueName: "bytes"))
    var request: String?

    @Option(help: ArgumentHelp("With --activate: send an HTTP GET of this path (the default, '/').", valueName: "path"))
    var httpGet: String?

    /// `--activate` with `--request` or `--http-get`, parsed; nil when not given.
    func activation() throws -> SocketActivation? {
        guard let activate else {
            if request != nil || httpGet != nil { throw ValidationError("--request and --http-get apply with --activate") }
            return nil
        }
        if request != nil, httpGet != nil { throw ValidationError("give --request or --http-get, not both") }
        do throws(SocketActivationError) {
            let endpoint = try SocketActivation.endpoint(parsing: activate)
            let sent: SocketActivation.Request
            if let request {
                sent = try SocketActivation.request(parsing: request)
            } else {
                sent = try SocketActivation.httpGet(parsing: httpGet ?? "/")
            }
            return SocketActivation(endpoint: endpoint, request: sent)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
