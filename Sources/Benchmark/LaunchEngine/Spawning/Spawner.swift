import CLaunchProfSpawn
import Glibc
import LaunchProfFormat
import LaunchSupport
import Synchronization

/// Starts measured processes the way `launchprof run` measures them, through
/// launchprof's spawner process (`SpawnService`, docs/spawner.md).
///
/// The child gets its own process group (so the harness can stop it and
/// everything it forked with one signal), a clean signal mask and default
/// dispositions, /dev/null as stdin, and three variables:
/// LAUNCHPROF_SPAWN_NS (t0), LAUNCHPROF_RECORD_FD (the record socket) and,
/// for the notify probe, NOTIFY_SOCKET. Every other LAUNCHPROF_* variable of
/// launchprof's own environment is removed (a stale LAUNCHPROF_TRACE or
/// LAUNCHPROF_SAMPLE_HZ in the user's shell must not change what is
/// measured); a target's own `environment` may still set them.
///
/// One spawner serves one run at a time: a `Spawner` is for one benchmark,
/// `record` or `profile`, and starts its spawner process on first use.
package struct Spawner: Sendable {
    /// Variables of the harness's own environment that must not reach the
    /// child: they would point it at the harness's parent, not at us.
    static let strippedVariables: Set<String> = ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]
    /// Prefix of the variables LaunchProf and the preload library read.
    static let launchProfPrefix = "LAUNCHPROF_"
    /// Variables that configure launchprof itself, not the programs it runs:
    /// kept from the child without a note.
    static let harnessVariables: Set<String> = ["LAUNCHPROF_SPAWNER", "LAUNCHPROF_PRELOAD_LIBRARY"]
    /// The record descriptor's name before records other than "ready" existed.
    static let legacyRecordFDVariable = "LAUNCHPROF_READY_FD"

    private let connection = SpawnConnection()
    private let programs = ResolvedPrograms()
    private let displays = DisplayConnections()

    /// A spawner.
    package init() {}

    /// Spawns `target`. t0 is read by the spawner just before its vfork,
    /// after everything else (path resolution, sockets, argv and environment)
    /// is ready. Connecting to an X display (`--ready window`/`frame`)
    /// ends at once when `interrupt` fires.
    package func spawn(
        _ target: LaunchTarget, options: SpawnOptions = SpawnOptions(), interrupt: InterruptMonitor? = nil
    ) throws(LaunchError) -> LaunchedProcess {
        let arguments = try Self.commandLine(of: target)
        let program = try resolve(arguments[0], for: target)
        try Self.checkEnvironment(of: target)
        if case .port(let number) = target.ready {
            var probe = PortProbe(port: number)
            if probe.isAccepting() {
                throw .portInUse(number, holder: PortHolder.describe(port: UInt16(number)) ?? "a process launchprof cannot name")
            }
        }
        let service = try connection.service()
        // The display's connection first: the spawn must not happen before it watches.
        let window =
            options.watchesWindows
            ? try displays.watch(display: options.display, timeout: options.displayTimeout, interrupt: interrupt) : nil
        let channels = try ChildChannels(options: options, program: program, window: window)
        let environment = SpawnEnvironment(base: target.environment, channels: channels)
        // A run that needs nothing until the exit does not wake launchprof
        // while the program starts (LP_SPAWN_FLAG_QUIET).
        var request = SpawnRequest(
            program: program, workingDirectory: target.workingDirectory, arguments: arguments,
            environment: environment.entries, spawnTimeSlot: environment.spawnSlot,
            listenPIDSlot: environment.listenPIDSlot, descriptors: channels.childDescriptors(), counters: options.counters)
        request.affinity = options.affinity
        // The sample sink, open already (SampleSink): the spawner gets its
        // own copy of the descriptor with the request (a sampled spawn is
        // never quiet, so the request is sent before this returns).
        if let sampling = options.sampling {
            request.descriptors.append((fd: sampling.sink.descriptor.rawValue, target: Int32(LP_SPAWN_FD_SAMPLE_SINK)))
            request.sampling = (sampling.rate, sampling.stackBytes, sampling.mapsAtReady)
        }
        if options.quiet, options.sampling == nil {
            // Sent by the run loop just before its first poll, so nothing
            // launchprof does after the request competes with the start.
            let process = LaunchedProcess(
                pid: nil, startNanoseconds: monotonicNanoseconds(), channels: channels.parentChannels(), service: service,
                program: program, deferred: (request, channels.childEnds()))
            process.notes.append(contentsOf: environment.notes)
            return process
        }
        do throws(LaunchError) {
            let started = try service.spawn(request, quiet: false)
            let process = LaunchedProcess(
                pid: started?.pid, startNanoseconds: started?.t0 ?? 0, channels: channels.parentSide(),
                service: service, program: program)
            process.notes.append(contentsOf: environment.notes)
            return process
        } catch {
            channels.closeAll()
            throw error
        }
    }

    /// The file `target` would execute; throws the error a spawn would, so a
    /// missing or non-executable program is reported before any run.
    package func resolveProgram(of target: LaunchTarget) throws(LaunchError) -> String {
        try resolve(try Self.commandLine(of: target)[0], for: target)
    }

    /// `name` (argv[0]) as the file to execute, resolved once per spawner:
    /// the session's validation resolves every target with the spawner its
    /// runs use, and each spawn takes the path it found.
    private func resolve(_ name: ByteString, for target: LaunchTarget) throws(LaunchError) -> String {
        guard name.isUTF8 else {
            throw .notExecutable(name.string, reason: "its path is not UTF-8; give a path launchprof can resolve")
        }
        let searchPath = target.environment["PATH"] ?? getenv("PATH").map { String(cString: $0) }
        return try programs.resolve(name.string, searchPath: searchPath)
    }

    /// argv as executed: the target's own, or `/bin/sh -c SCRIPT` for
    /// `--shell`: one string is the script as written; several words are
    /// each quoted, so `--shell -- printf '%s\n' "a b"` runs what it says.
    /// A function of the target alone: showing a command needs no spawner.
    static func commandLine(of target: LaunchTarget) throws(LaunchError) -> [ByteString] {
        guard let first = target.arguments.first, !first.isEmpty else { throw .emptyCommand(target: target.name) }
        for (index, argument) in target.arguments.enumerated() {
            if let offset = argument.firstNUL { throw .nulByte(target: target.name, in: "argument \(index)", offset: offset) }
        }
        guard target.useShell else { return target.arguments }
        if target.arguments.count == 1 { return ["/bin/sh", "-c", first] }
        let script = target.arguments.map(Self.shellQuoted).map(\.bytes).joined(separator: [0x20])
        return ["/bin/sh", "-c", ByteString(script)]
    }

    /// Throws when a variable the target adds holds a NUL (the kernel would
    /// end it there, and the rest would be lost), or its name is empty or
    /// holds '=' (`A=B` set to x would reach the program as A, "B=x").
    static func checkEnvironment(of target: LaunchTarget) throws(LaunchError) {
        for (name, value) in target.environment.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty || name.contains("=") {
                throw .invalidVariable(target: target.name, name: name)
            }
            if let offset = ByteString(name + "=" + value).firstNUL {
                throw .nulByte(target: target.name, in: "environment variable \(name.debugDescription)", offset: offset)
            }
        }
    }

    /// `word` as one POSIX shell word, byte for byte.
    static func shellQuoted(_ word: ByteString) -> ByteString {
        let safe = Set("-_./=:,+@%".utf8)
        let plain =
            !word.isEmpty
            && word.bytes.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || safe.contains(byte)
            }
        if plain { return word }
        var quoted: [UInt8] = [0x27]
        for byte in word.bytes {
            // ' ends the quote, is written escaped, and the quote starts again.
            if byte == 0x27 { quoted += Array("'\\''".utf8) } else { quoted.append(byte) }
        }
        quoted.append(0x27)
        return ByteString(quoted)
    }
}

/// Everything the spawner needs to start one process.
struct SpawnRequest {
    var program: String
    var workingDirectory: String?
    var arguments: [ByteString]
    var environment: [ByteString]
    var spawnTimeSlot: Int?
    /// Index of the LISTEN_PID entry the child fills with its pid (socket activation).
    var listenPIDSlot: Int?
    /// Descriptors here and their numbers in the child. Closed by whoever
    /// holds the request once it was sent (the spawner has its own copies).
    var descriptors: [(fd: Int32, target: Int32)]
    /// Count the tree with perf_event_open (`LP_SPAWN_FLAG_COUNT`).
    var counters = false
    /// Sample the tree in the kernel (`LP_SPAWN_FLAG_SAMPLE`): the rate, the
    /// stack bytes, and the sink's descriptor (also in `descriptors`, at
    /// `LP_SPAWN_FD_SAMPLE_SINK`).
    var sampling: (rate: UInt32, stackBytes: UInt32, mapsAtReady: Bool)?
    /// The CPUs the process runs on (`LP_SPAWN_FLAG_AFFINITY`); nil: those
    /// the spawner started with.
    var affinity: CPUAffinity?
}

/// The spawner process of one `Spawner`, started on first use.
final class SpawnConnection: Sendable {
    // SpawnService is used by one run at a time; the lock only guards its creation.
    private nonisolated(unsafe) var started: SpawnService?
    private let lock = Mutex<Void>(())

    func service() throws(LaunchError) -> SpawnService {
        let result: Result<SpawnService, LaunchError> = lock.withLock { _ in
            if let started { return .success(started) }
            do throws(LaunchError) {
                let service = try SpawnService(executable: try SpawnService.locate())
                started = service
                return .success(service)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The child's environment: the harness's own (minus what points at our
/// parent and every LAUNCHPROF_* variable), the target's additions, then the
/// launchprof variables, with a slot the spawner fills with t0.
struct SpawnEnvironment {
    private(set) var entries: [ByteString] = []
    /// Index of the LAUNCHPROF_SPAWN_NS entry, filled in by the spawner.
    private(set) var spawnSlot = 0
    /// Index of the LISTEN_PID entry, filled in by the child (socket activation).
    private(set) var listenPIDSlot: Int?
    /// What was removed from launchprof's own environment, said once per run.
    private(set) var notes: [String] = []

    init(base additions: [String: String], channels: ChildChannels) {
        var removed: [String] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            // Bytes, not a String: a value need not be UTF-8, and must reach
            // the child as it is.
            let text = ByteString(cString: entry)
            let name = String(decoding: text.bytes.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
            if additions[name] != nil || Spawner.strippedVariables.contains(name) { continue }
            if name.hasPrefix(Spawner.launchProfPrefix) {
                if !Spawner.harnessVariables.contains(name) { removed.append(name) }
                continue
            }
            entries.append(text)
        }
        for (name, value) in additions.sorted(by: { $0.key < $1.key })
        where name != LP_RECORD_FD_VARIABLE && name != Spawner.legacyRecordFDVariable && name != "LAUNCHPROF_SPAWN_NS" {
            entries.append(ByteString(name + "=" + value))
        }
        entries.append("\(LP_RECORD_FD_VARIABLE)=\(channels.recordDescriptor)")
        // Programs built with a LaunchProf older than the name read this one.
        entries.append("\(Spawner.legacyRecordFDVariable)=\(channels.recordDescriptor)")
        if let notify = channels.notify { entries.append("NOTIFY_SOCKET=\(notify.address)") }
        if let activation = channels.options.activation {
            // systemd's socket activation: one descriptor from 3, named; the
            // child writes its own pid (it is not known before the fork).
            entries.append("LISTEN_FDS=1")
            entries.append("LISTEN_FDNAMES=\(activation.name)")
            listenPIDSlot = entries.count
            entries.append(ByteString("LISTEN_PID=" + String(repeating: "0", count: 20)))
        }
        spawnSlot = entries.count
        // Room for 20 digits (UInt64.max); the spawner writes t0 and a NUL.
        entries.append(ByteString("LAUNCHPROF_SPAWN_NS=" + String(repeating: "0", count: 20)))
        if !removed.isEmpty {
            notes.append(
                "ignored \(removed.sorted().joined(separator: ", ")) from launchprof's environment: the launched "
                    + "program gets only the LAUNCHPROF_* variables launchprof sets (set them per target with env: "
                    + "in launchprof.yml)")
        }
    }
}
