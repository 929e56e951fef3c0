import LaunchEngine

/// The targets `--target` named, when one is not in the config.
public struct TargetSelectionError: Error, Equatable, CustomStringConvertible {
    /// The config file.
    public var file: String
    /// The names asked for that are not targets.
    public var unknown: [String]
    /// The targets there are.
    public var known: [String]

    public var description: String {
        "\(file) has no target named \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(targets: \(known.joined(separator: ", ")))"
    }
}
