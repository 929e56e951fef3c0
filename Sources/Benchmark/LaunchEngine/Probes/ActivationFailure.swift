/// Why a request through the activated socket got no whole response.
struct ActivationFailure: Error, Equatable, Sendable {
    var message: String
}
