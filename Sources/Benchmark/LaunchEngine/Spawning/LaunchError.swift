import LaunchSupport

/// Why a target could not be started. Each case names the program, so the
/// message is actionable on its own.
package enum LaunchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line was empty.
    case emptyCommand(target: String)
    /// An argument or a variable holds a NUL byte, which would end it there
    /// (and a variable's rest could pass for another variable).
    case nulByte(target: String, in: String, offset: Int)
    /// A variable's name is empty or holds '='.
    case invalidVariable(target: String, name: String)
    /// argv[0] has no '/' and no PATH entry holds an executable of that name.
    case programNotFound(String, searched: String)
    /// The path does not exist.
    case noSuchFile(String)
    /// The path exists but is not a regular file the user may execute.
    case notExecutable(String, reason: String)
    /// A system call needed to start the process failed.
    case system(SystemCallError, program: String)
    /// The spawner could not start the program: `reason` is its message,
    /// the system's error and what it means for this program.
    case spawnFailed(String, reason: String)
    /// argv and the environment are more than the kernel takes (E2BIG):
    /// `reason` says which string or total, with the sizes.
    case tooLarge(String, reason: String)
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

    package var description: String {
        switch self {
        case .emptyCommand(let target):
            "target '\(target)' has an empty command line"
        case .invalidVariable(let target, let name):
            "target '\(target)': \(name.debugDescription) cannot be an environment variable's name (empty, or holds '=')"
        case .nulByte(let target, let place, let offset):
            "target '\(target)': \(place) holds a NUL byte at offset \(offset), which no argument or variable can pass"
        case .programNotFound(let name, let searched):
            "program '\(name)' not found in PATH (\(searched)); give a path or fix PATH"
        case .noSuchFile(let path):
            "program '\(path)' does not exist"
        case .notExecutable(let path, let reason):
            "program '\(path)' is not executable: \(reason)"
        case .system(let error, let program):
            "cannot start '\(program)': \(error)"
        case .spawnFailed(let program, let reason):
            "cannot start '\(program)': \(reason)"
        case .tooLarge(let program, let reason):
            "cannot start '\(program)': \(reason); shorten the arguments or remove variables from the environment"
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
