import LaunchProf

/// Why a prewarm registry's items cannot be warmed or read.
public enum PrewarmError: Error, Equatable, CustomStringConvertible {
    /// Two items were registered under one name.
    case duplicateName(String)
    /// `item` depends on a name no item was registered under.
    case unknownDependency(item: String, dependency: String)
    /// Items depend on each other in a circle; the path starts and ends at
    /// the same item.
    case cycle([String])

    public var description: String {
        switch self {
        case .duplicateName(let name):
            "prewarm item '\(name)' is registered twice; give each item its own name"
        case .unknownDependency(let item, let dependency):
            "prewarm item '\(item)' depends on '\(dependency)', which is not registered; register it or fix the name"
        case .cycle(let path):
            "prewarm cycle: \(path.joined(separator: " -> ")); remove one of these dependencies"
        }
    }
}
