import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// launchprof's connection to one `lp-spawn` process, the small static C
/// program that starts every measured process (docs/spawner.md).
///
/// Started on first use and kept for the benchmark; one run at a time. When
/// this object goes away (or launchprof dies in any way), the spawner's
/// socket reaches end of file and it kills and reaps whatever is left of the
/// run's tree before it exits.
package final class SpawnService {
    /// launchprof's end of the control socket: readable when the spawner
    /// reports an exit, a stop, or an answer.
    private let controlSocket: FileDescriptor
    package var control: Int32 { controlSocket.rawValue }
    /// The spawner's pid (the parent, and subreaper, of every run's tree).
    package let pid: pid_t
    /// Replies that arrived while another one was awaited, oldest first.
    private var pending: [lp_spawn_reply] = []

    /// The name of the spawner executable, installed beside `launchprof`.
    package static let executableName = "lp-spawn"

    package init(executable: String) throws(LaunchError) {
        // Children's exit statuses and resources must reach their parent: an
        // inherited SIGCHLD=SIG_IGN (some CI runners and shells set it) would
        // make the kernel reap the spawner before launchprof can.
        Glibc.signal(SIGCHLD, SIG_DFL)
        var control: Int32 = -1
        let pid: pid_t
        do throws(SystemCallError) {
            pid = try Syscall.check("posix_spawn", executable) { lp_spawn_start(executable, &control) }
        } catch {
            throw .system(error, program: executable)
        }
        self.pid = pid
        controlSocket = FileDescriptor(control)
    }

    /// Closes the socket (the spawner cleans up and exits) and reaps it.
    deinit {
        controlSocket.close()
        // The spawner exits at once unless a process of the run cannot die
        // (it gives up on those after five seconds).
        var status: Int32 = 0
        let deadline = monotonicNanoseconds() &+ 6_000_000_000
        // waitpid through Syscall: EINTR retried; an error (ECHILD: already
        // reaped) ends the wait as the exit does.
        while (try? Syscall.check("waitpid", "lp-spawn") { waitpid(pid, &status, WNOHANG) }) == 0 {
            if monotonicNanoseconds() > deadline {
                _ = try? Syscall.check("kill", "lp-spawn") { kill(pid, SIGKILL) }
                _ = try? Syscall.check("waitpid", "lp-spawn") { waitpid(pid, &status, 0) }
                break
            }
            usleep(1_000)
        }
    }

    /// Where the spawner is: `LAUNCHPROF_SPAWNER` when set (tests and
    /// installs that keep it elsewhere), else `../libexec/launchprof/` from
    /// the running executable (an install), else beside it (the build tree:
    /// the CLI, or the test bundle in the same build folder). The error
    /// names every path tried.
    package static func locate() throws(LaunchError) -> String {
        let search = CompanionFile.spawner.locate(mode: X_OK)
        if let path = search.path { return path }
        throw .spawnerMissing(
            tried: search.tried,
            reason: search.problem
                ?? "it is built with launchprof (`swift build` builds both) and installed in <prefix>/\(CompanionFile.installedFolder)/ "
                + "beside <prefix>/bin/launchprof; set LAUNCHPROF_SPAWNER to use another")
    }

    /// Asks the spawner to start a process; returns its pid and t0, or, for
    /// a `quiet` spawn (`LP_SPAWN_FLAG_QUIET`), nil: they arrive with the
    /// exit, and a failure to start arrives as an event.
    func spawn(_ spawn: SpawnRequest, quiet: Bool) throws(LaunchError) -> (pid: pid_t, t0: UInt64)? {
        let (program, arguments, environment, descriptors) = (spawn.program, spawn.arguments, spawn.environment, spawn.descriptors)
        var payload: [UInt8] = []
        for text in [ByteString(program), ByteString(spawn.workingDirectory ?? "")] + arguments + environment {
            payload.append(contentsOf: text.bytes)
            payload.append(0)
        }
        var request = lp_spawn_request()
        request.magic = UInt32(LP_SPAWN_MAGIC)
        request.kind = UInt32(LP_SPAWN_REQUEST_SPAWN.rawValue)
        request.payload_size = UInt64(payload.count)
        request.argc = UInt32(arguments.count)
        request.envc = UInt32(environment.count)
        request.spawn_time_slot = Int32(spawn.spawnTimeSlot ?? -1)
        request.listen_pid_entry = spawn.listenPIDSlot.map { UInt32($0 + 1) } ?? 0
        request.fd_count = UInt32(descriptors.count)
        request.flags = (quiet ? UInt32(LP_SPAWN_FLAG_QUIET) : 0) | (spawn.counters ? UInt32(LP_SPAWN_FLAG_COUNT) : 0)
        if let sampling = spawn.sampling {
            request.flags |= UInt32(LP_SPAWN_FLAG_SAMPLE) | (sampling.mapsAtReady ? UInt32(LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY) : 0)
            request.sample_hz = sampling.rate
            request.sample_stack_bytes = sampling.stackBytes
        }
        if let affinity = spawn.affinity {
            request.flags |= UInt32(LP_SPAWN_FLAG_AFFINITY)
            withUnsafeMutableBytes(of: &request.affinity) { affinity.write(to: $0) }
        }
        withUnsafeMutableBytes(of: &request.fd_targets) { raw in
            let targets = raw.bindMemory(to: Int32.self)
            for (index, descriptor) in descriptors.enumerated() where index < targets.count {
                targets[index] = descriptor.target
            }
        }
        let fds = descriptors.map(\.fd)
        do throws(SystemCallError) {
            try Syscall.check("sendmsg", "spawner") {
                payload.withUnsafeBytes { bytes in
                    lp_spawn_send(control, &request, bytes.baseAddress, bytes.count, fds, UInt32(fds.count))
                }
            }
        } catch {
            throw gone("sending a spawn request", errno: error.errno, program: program)
        }
        if quiet { return nil }
        let reply = try awaitReply(program: program) {
            $0 == LP_SPAWN_REPLY_SPAWNED.rawValue || $0 == LP_SPAWN_REPLY_FAILED.rawValue
        }
        if reply.kind == LP_SPAWN_REPLY_FAILED.rawValue { throw Self.failure(reply, program: program) }
        return (reply.pid, reply.nanoseconds)
    }

    /// The error for a FAILED reply.
    static func failure(_ reply: lp_spawn_reply, program: String) -> LaunchError {
        if reply.error == ENOEXEC {
            return .notExecutable(program, reason: "the kernel cannot run it (not an ELF binary or a #! script)")
        }
        let message = text(of: reply.message)
        if reply.error == E2BIG { return .tooLarge(program, reason: message) }
        // The spawner's message says what the errno alone does not: a
        // missing #! interpreter or dynamic loader (ENOENT for a file that
        // exists), a working directory that cannot be entered.
        if !message.isEmpty { return .spawnFailed(program, reason: message) }
        return .system(SystemCallError(call: "spawn", subject: program, errno: reply.error), program: program)
    }

    /// Sends `signal` to the run's process, group or whole tree.
    func signal(_ number: Int32, scope: lp_spawn_scope) {
        var request = lp_spawn_request()
        request.magic = UInt32(LP_SPAWN_MAGIC)
        request.kind = UInt32(LP_SPAWN_REQUEST_SIGNAL.rawValue)
        request.signal = number
        request.scope = scope.rawValue
        _ = lp_spawn_send(control, &request, nil, 0, nil, 0)
    }

    /// The run is ready: a counted spawn's counters are read now
    /// (`LP_SPAWN_REQUEST_MARK_READY`, not answered).
    func markReady() {
        var request = lp_spawn_request()
        request.magic = UInt32(LP_SPAWN_MAGIC)
        request.kind = UInt32(LP_SPAWN_REQUEST_MARK_READY.rawValue)
        _ = lp_spawn_send(control, &request, nil, 0, nil, 0)
    }

    /// Ends the run: kills what is left of its tree, reaps it all, and
    /// returns the resources, with every event that arrived before.
    func finish(program: String) throws(LaunchError) -> (finished: lp_spawn_reply, events: [lp_spawn_reply]) {
        var request = lp_spawn_request()
        request.magic = UInt32(LP_SPAWN_MAGIC)
        request.kind = UInt32(LP_SPAWN_REQUEST_FINISH.rawValue)
        do throws(SystemCallError) {
            try Syscall.check("sendmsg", "spawner") { lp_spawn_send(control, &request, nil, 0, nil, 0) }
        } catch {
            throw gone("ending a run", errno: error.errno, program: program)
        }
        let finished = try awaitReply(program: program) { $0 == LP_SPAWN_REPLY_FINISHED.rawValue }
        let events = pending
        pending = []
        return (finished, events)
    }

    /// The next unasked report (exit, stop, continue) without waiting, or
    /// nil. A vanished spawner is reported as an error.
    func nextEvent() throws(LaunchError) -> lp_spawn_reply? {
        if !pending.isEmpty { return pending.removeFirst() }
        var reply = lp_spawn_reply()
        let received: Int32?
        do throws(SystemCallError) {
            received = try Syscall.nonBlocking("recvmsg", "spawner") { lp_spawn_receive(control, &reply, 1) }
        } catch {
            throw gone("waiting for the run", errno: error.errno, program: nil)
        }
        switch received {
        case nil: return nil  // nothing now
        case 0?: throw gone("waiting for the run", errno: 0, program: nil)
        default: return reply
        }
    }

    /// Reads replies until one of the kinds `wanted` accepts, keeping the
    /// events that come before it.
    private func awaitReply(program: String, _ wanted: (UInt32) -> Bool) throws(LaunchError) -> lp_spawn_reply {
        while true {
            var reply = lp_spawn_reply()
            let result: Int32
            do throws(SystemCallError) {
                result = try Syscall.check("recvmsg", "spawner") { lp_spawn_receive(control, &reply, 0) }
            } catch {
                throw gone("waiting for its answer", errno: error.errno, program: program)
            }
            if result == 1 {
                if reply.kind == LP_SPAWN_REPLY_PROTOCOL_ERROR.rawValue {
                    throw .spawnerFailed("the spawner could not read a request: \(Self.text(of: reply.message))")
                }
                if wanted(reply.kind) { return reply }
                pending.append(reply)
                continue
            }
            throw gone("waiting for its answer", errno: 0, program: program)
        }
    }

    private func gone(_ doing: String, errno code: Int32, program: String?) -> LaunchError {
        let why = code == 0 ? "it exited" : String(cString: strerror(code))
        return .spawnerFailed("lost the spawner (pid \(pid)) while \(doing)\(program.map { " for \($0)" } ?? ""): \(why)")
    }

    /// A fixed-size C character array as a String.
    static func text<T>(of tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
