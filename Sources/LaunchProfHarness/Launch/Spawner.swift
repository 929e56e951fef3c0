import Glibc

/// Starts measured processes with posix_spawn, the way `launchprof run`
/// measures them.
///
/// The child gets its own process group (so the harness can stop it and
/// everything it forked with one kill), a clean signal mask and default
/// dispositions (the harness ignores SIGINT; the child must not inherit
/// that), /dev/null as stdin, and three variables: LAUNCHPROF_SPAWN_NS (t0),
/// LAUNCHPROF_READY_FD (the write end of the record pipe) and, for the notify
/// probe, NOTIFY_SOCKET. Every descriptor the harness opens is close-on-exec,
/// so concurrent spawns never leak one another's pipes.
public struct Spawner: Sendable {
    /// Variables of the harness's own environment that must not reach the
    /// child: they would point it at the harness's parent, not at us.
    static let strippedVariables: Set<String> = ["NOTIFY_SOCKET", "LAUNCHPROF_READY_FD", "LAUNCHPROF_SPAWN_NS"]

    public init() {}

    /// Spawns `target`. t0 is read just before posix_spawn, after everything
    /// else (path resolution, pipes, argv and environment) is ready.
    public func spawn(_ target: LaunchTarget, options: SpawnOptions = SpawnOptions()) throws(LaunchError) -> LaunchedProcess {
        let arguments = try commandLine(of: target)
        let program = try resolveProgram(of: target)
        let channels = try ChildChannels(options: options, program: program)
        // Read before t0: the parent's work after posix_spawn returns competes
        // with the starting child for a CPU, so it is kept to the minimum.
        let parentPeak = LaunchedProcess.ownPeakRSSBytes()
        do throws(SystemCallError) {
            let pid = try channels.withSpawnSetup(target: target) {
                (actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) throws(SystemCallError) in
                try launch(program: program, arguments: arguments, target: target, channels: channels,
                           actions: &actions, attributes: &attributes)
            }
            return LaunchedProcess(
                pid: pid.pid, startNanoseconds: pid.t0, channels: channels.parentSide(), parentPeakRSSBytes: parentPeak,
                spawnStrings: pid.strings)
        } catch {
            channels.closeAll()
            if error.errno == ENOEXEC {
                throw .notExecutable(program, reason: "the kernel cannot run it (not an ELF binary or a #! script)")
            }
            throw .system(error, program: program)
        }
    }

    /// The file `target` would execute; throws the error a spawn would, so a
    /// missing or non-executable program is reported before any run.
    public func resolveProgram(of target: LaunchTarget) throws(LaunchError) -> String {
        let arguments = try commandLine(of: target)
        let searchPath = target.environment["PATH"] ?? getenv("PATH").map { String(cString: $0) }
        return try ProgramResolver.resolve(arguments[0], searchPath: searchPath)
    }

    /// argv as executed: the target's own, or `/bin/sh -c SCRIPT` for `--shell`.
    func commandLine(of target: LaunchTarget) throws(LaunchError) -> [String] {
        guard let first = target.arguments.first, !first.isEmpty else { throw .emptyCommand(target: target.name) }
        guard target.useShell else { return target.arguments }
        return ["/bin/sh", "-c", target.arguments.joined(separator: " ")]
    }

    private func launch(
        program: String, arguments: [String], target: LaunchTarget, channels: ChildChannels,
        actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t
    ) throws(SystemCallError) -> (pid: pid_t, t0: UInt64, strings: [CStringArray]) {
        var environment = SpawnEnvironment(base: target.environment, channels: channels)
        let argv = CStringArray(arguments)
        var pid: pid_t = 0
        // t0: the last thing before posix_spawn. Only formatting 20 digits
        // into a preallocated slot separates the two.
        let t0 = monotonicNanoseconds()
        environment.setSpawnTime(t0)
        do {
            try Syscall.checkReturn("posix_spawn", program) {
                posix_spawn(&pid, program, &actions, &attributes, argv.pointers, environment.pointers)
            }
        } catch {
            argv.free()
            environment.free()
            throw error
        }
        // Freed with the process, after the run: work done here would compete
        // with the starting child for a CPU.
        return (pid, t0, [argv, environment.storage])
    }
}

/// A NULL-terminated array of strdup'ed C strings, as argv and envp need.
struct CStringArray {
    var pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    func free() {
        for pointer in pointers { Glibc.free(pointer) }
    }
}

/// The child's environment: the harness's own (minus what points at our
/// parent), the target's additions, then the launchprof variables.
struct SpawnEnvironment {
    private var strings: CStringArray
    /// Index of the LAUNCHPROF_SPAWN_NS entry, filled in just before spawn.
    private let spawnSlot: Int
    private static let spawnPrefix = "LAUNCHPROF_SPAWN_NS="

    init(base additions: [String: String], channels: ChildChannels) {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if !Spawner.strippedVariables.contains(name), additions[name] == nil { entries.append(text) }
            index += 1
        }
        for (name, value) in additions.sorted(by: { $0.key < $1.key }) { entries.append("\(name)=\(value)") }
        entries.append("LAUNCHPROF_READY_FD=\(channels.readyWrite)")
        if let notify = channels.notify { entries.append("NOTIFY_SOCKET=\(notify.address)") }
        spawnSlot = entries.count
        // Room for 20 digits (UInt64.max); the terminating NUL moves left.
        entries.append(Self.spawnPrefix + String(repeating: "0", count: 20))
        strings = CStringArray(entries)
    }

    var pointers: [UnsafeMutablePointer<CChar>?] { strings.pointers }
    /// The strings themselves, for whoever frees them later.
    var storage: CStringArray { strings }

    /// Writes `t0` in decimal into the preallocated slot, without allocating.
    mutating func setSpawnTime(_ t0: UInt64) {
        guard let slot = strings.pointers[spawnSlot] else { return }
        let digits = slot + Self.spawnPrefix.utf8.count
        var value = t0
        var count = 0
        repeat {
            count += 1
            value /= 10
        } while value > 0
        value = t0
        for position in stride(from: count - 1, through: 0, by: -1) {
            digits[position] = CChar(48 + value % 10)
            value /= 10
        }
        digits[count] = 0
    }

    func free() { strings.free() }
}
