/// A product the tests run is not built: the repository's launchprof, or
/// the package's own sample.
public struct MissingProductError: Error, Sendable, CustomStringConvertible {
    /// Where it was looked for.
    public var path: String

    /// The error for a product missing at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The path, and what to run to build it.
    public var description: String {
        "\(path) is missing: run `swift build` there first"
    }
}
