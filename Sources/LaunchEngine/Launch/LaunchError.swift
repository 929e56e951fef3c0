import LaunchSupport

/// Why a target could not be started. Each case names the program, so the
/// message is actionable on its own.
public enum LaunchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line was empty.
    case emptyCommand(target: String)
    /// argv[0] has no '/' and no PATH entry holds an executable of that name.
    case programNotFound(String, searched: String)
    /// The path does not exist.
    case noSuchFile(String)
    /// The path exists but is not a regular file the user may execute.
    case notExecutable(String, reason: String)
    /// A system call needed to start the process failed.
    case system(SystemCallError, program: String)
    /// `--ready port:N` cannot tell this launch's readiness apart: something
    /// already accepts connections on the port.
    case portInUse(Int, holder: String)
    /// The spawner (lp-spawn) is in none of the places launchprof looks
    /// for it (`tried`, in order).
    case spawnerMissing(tried: [String], reason: String)
    /// The spawner stopped answering, or could not read a request.
    case spawnerFailed(String)
    /// The socket of a launch on demand (`--activate`) cannot be made.
    case activation(String)
    /// `--ready window`/`frame` cannot watch the X display.
    case window(String)

    public var description: String {
        switch self {
        case .emptyCommand(let target):
            "target '\(target)' has an empty command line"
        case .programNotFound(let name, let searched):
            "program '\(name)' not found in PATH (\(searched)); give a path or fix PATH"
        case .noSuchFile(let path):
            "program '\(path)' does not exist"
        case .notExecutable(let path, let reason):
            "program '\(path)' is not executable: \(reason)"
        case .system(let error, let program):
            "cannot start '\(program)': \(error)"
        case .portInUse(let port, let holder):
            "--ready port:\(port): the port is already in use by \(holder) before the launch, so a connection "
                + "would not show that this program is ready; stop it or choose another port"
        case .spawnerMissing(let tried, let reason):
            "launchprof's spawner \(SpawnService.executableName) was not found"
                + (tried.isEmpty ? "" : " (tried \(tried.map { "'\($0)'" }.joined(separator: ", ")))") + ": \(reason)"
        case .spawnerFailed(let message), .activation(let message):
            message
        case .window(let reason):
            "--ready window/frame: \(reason)"
        }
    }
}
