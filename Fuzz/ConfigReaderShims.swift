/// What the config reader's fuzz build leaves out: the Pushgateway client,
/// which runs curl; the reader only asks it whether a URL is one.
struct PushGateway {
    init(url: String) throws {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw ShimError.notAURL }
    }

    enum ShimError: Error {
        case notAURL
    }
}
