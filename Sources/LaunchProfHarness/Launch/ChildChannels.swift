import Glibc

/// The descriptors connecting the harness to one child, both ends, from
/// creation until posix_spawn. All are close-on-exec; the child gets only
/// what the file actions hand it.
struct ChildChannels {
    var readyRead: Int32 = -1
    var readyWrite: Int32 = -1
    var stdoutRead: Int32 = -1
    var stdoutWrite: Int32 = -1
    var stderrRead: Int32 = -1
    var stderrWrite: Int32 = -1
    /// The per-run output file (`--output-dir`), when there is one.
    var outputFile: Int32 = -1
    var notify: NotifySocket?
    let options: SpawnOptions

    init(options: SpawnOptions, program: String) throws(LaunchError) {
        self.options = options
        do throws(SystemCallError) {
            (readyRead, readyWrite) = try Self.pipe(nonBlockingRead: true)
            if options.captureOutput {
                (stdoutRead, stdoutWrite) = try Self.pipe(nonBlockingRead: true)
                (stderrRead, stderrWrite) = try Self.pipe(nonBlockingRead: true)
            }
            if case .file(let path) = options.output {
                outputFile = try Syscall.check("open", path) {
                    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                }
            }
            if options.notifySocket { notify = try NotifySocket() }
        } catch {
            closeAll()
            throw .system(error, program: program)
        }
    }

    /// A close-on-exec pipe; the read end (the harness's) optionally non-blocking.
    private static func pipe(nonBlockingRead: Bool) throws(SystemCallError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try Syscall.check("pipe2") { GNUExtensions.pipe2(&ends, O_CLOEXEC) }
        if nonBlockingRead {
            let flags = fcntl(ends[0], F_GETFL)
            _ = fcntl(ends[0], F_SETFL, flags | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Builds the file actions and attributes, runs `body` with them, and
    /// destroys them again.
    func withSpawnSetup<T>(
        target: LaunchTarget,
        _ body: (inout posix_spawn_file_actions_t, inout posix_spawnattr_t) throws(SystemCallError) -> T
    ) throws(SystemCallError) -> T {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        try addFileActions(&actions, workingDirectory: target.workingDirectory)
        try setAttributes(&attributes)
        return try body(&actions, &attributes)
    }

    private func addFileActions(_ actions: inout posix_spawn_file_actions_t, workingDirectory: String?) throws(SystemCallError) {
        try Syscall.checkReturn("posix_spawn_file_actions_addopen", "/dev/null") {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if options.captureOutput {
            try dup(stdoutWrite, to: 1, &actions)
            try dup(stderrWrite, to: 2, &actions)
        } else {
            switch options.output {
            case .inherit: break
            case .discard:
                try Syscall.checkReturn("posix_spawn_file_actions_addopen", "/dev/null") {
                    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                }
                try dup(1, to: 2, &actions)
            case .file:
                try dup(outputFile, to: 1, &actions)
                try dup(outputFile, to: 2, &actions)
            }
        }
        // dup2 onto itself: glibc (2.29+) then clears FD_CLOEXEC in the child
        // only, so the record pipe is inherited by this child and no other.
        try dup(readyWrite, to: readyWrite, &actions)
        if let workingDirectory {
            try Syscall.checkReturn("posix_spawn_file_actions_addchdir_np", workingDirectory) {
                GNUExtensions.addChdir(&actions, workingDirectory)
            }
        }
    }

    private func dup(_ fd: Int32, to target: Int32, _ actions: inout posix_spawn_file_actions_t) throws(SystemCallError) {
        try Syscall.checkReturn("posix_spawn_file_actions_adddup2") {
            posix_spawn_file_actions_adddup2(&actions, fd, target)
        }
    }

    /// Own process group; empty signal mask; default dispositions.
    private func setAttributes(_ attributes: inout posix_spawnattr_t) throws(SystemCallError) {
        var empty = sigset_t()
        sigemptyset(&empty)
        var ignored = Self.signalsToReset()
        let flags = Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        try Syscall.checkReturn("posix_spawnattr_setflags") { posix_spawnattr_setflags(&attributes, flags) }
        try Syscall.checkReturn("posix_spawnattr_setpgroup") { posix_spawnattr_setpgroup(&attributes, 0) }
        try Syscall.checkReturn("posix_spawnattr_setsigmask") { posix_spawnattr_setsigmask(&attributes, &empty) }
        try Syscall.checkReturn("posix_spawnattr_setsigdefault") { posix_spawnattr_setsigdefault(&attributes, &ignored) }
    }

    /// The signals the child must reset to their default action: those the
    /// harness ignores now (only SIG_IGN survives exec; handlers are reset by
    /// the kernel) plus the usual job-control and termination signals.
    /// Resetting only these, not all 64, saves the child ~60 sigaction calls
    /// inside the measured time.
    private static func signalsToReset() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD] { sigaddset(&set, number) }
        for number in Int32(1)..<Int32(32) where number != SIGKILL && number != SIGSTOP {
            var action = sigaction()
            // SIG_IGN is the handler value 1; function pointers are not Equatable.
            if sigaction(number, nil, &action) == 0,
                unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
            {
                sigaddset(&set, number)
            }
        }
        return set
    }

    /// After a successful spawn: closes the child's ends and hands the
    /// harness's ends to the launched process.
    func parentSide() -> ParentChannels {
        for fd in [readyWrite, stdoutWrite, stderrWrite] { Syscall.closeQuietly(fd) }
        var echo: (stdout: Int32, stderr: Int32)?
        var ownedFile: Int32 = -1
        if options.captureOutput {
            switch options.output {
            case .discard: echo = nil
            case .inherit: echo = (1, 2)
            case .file:
                echo = (outputFile, outputFile)
                ownedFile = outputFile
            }
        }
        if ownedFile < 0 { Syscall.closeQuietly(outputFile) }
        return ParentChannels(
            readyRead: readyRead, stdoutRead: stdoutRead, stderrRead: stderrRead,
            echo: echo, ownedOutputFile: ownedFile, notify: notify)
    }

    /// After a failed spawn: closes everything.
    func closeAll() {
        for fd in [readyRead, readyWrite, stdoutRead, stdoutWrite, stderrRead, stderrWrite, outputFile] {
            Syscall.closeQuietly(fd)
        }
    }
}

/// The harness's ends of a running child's channels.
struct ParentChannels {
    /// Read end of the LP1 record pipe (non-blocking).
    var readyRead: Int32
    /// Read ends of stdout and stderr, when captured (non-blocking), else -1.
    var stdoutRead: Int32
    var stderrRead: Int32
    /// Where captured output is copied: the harness's stdout/stderr or the
    /// per-run file. nil discards it.
    var echo: (stdout: Int32, stderr: Int32)?
    /// The per-run file the harness writes captured output to, if any.
    var ownedOutputFile: Int32
    var notify: NotifySocket?
}
