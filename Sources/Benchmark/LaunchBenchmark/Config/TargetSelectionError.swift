import LaunchEngine

/// The targets `--target` named, when one is not in the config.
package struct TargetSelectionError: Error, Equatable, CustomStringConvertible {
    /// The config file.
    package var file: String
    /// The names asked for that are not targets.
    package var unknown: [String]
    /// The targets there are.
    package var known: [String]

    package var description: String {
        "\(file) has no target named \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(targets: \(known.joined(separator: ", ")))"
    }
}
