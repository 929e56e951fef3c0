import Synchronization

/// The programs one `Spawner` has resolved (argv[0] and the PATH it was
/// searched in → the file), so that a benchmark resolves each target once:
/// in validation, before any run, and not again before every spawn.
final class ResolvedPrograms: Sendable {
    private let found = Mutex<[String: String]>([:])

    /// `name` resolved as execvp would (`ProgramResolver`), or the file it
    /// resolved to before with the same search path. Failures are not kept:
    /// a program that appears later is found then.
    func resolve(_ name: String, searchPath: String?) throws(LaunchError) -> String {
        let key = name + "\u{0}" + (searchPath ?? "")
        if let known = found.withLock({ $0[key] }) { return known }
        let path = try ProgramResolver.resolve(name, searchPath: searchPath)
        found.withLock { $0[key] = path }
        return path
    }
}
