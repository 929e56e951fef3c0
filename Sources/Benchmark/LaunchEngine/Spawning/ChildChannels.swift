import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// The descriptors connecting the harness to one child, both ends, from
/// creation until the spawn. All are close-on-exec; the child gets only what
/// ``childDescriptors()`` hands the spawner, at the numbers given there.
struct ChildChannels {
    /// The record socket (LAUNCHPROF_RECORD_FD): a SOCK_SEQPACKET pair, so
    /// every record arrives whole and with its sender's pid.
    var recordRead: FileDescriptor?
    var recordWrite: FileDescriptor?
    var stdinRead: FileDescriptor?
    var stdoutRead: FileDescriptor?
    var stdoutWrite: FileDescriptor?
    var stderrRead: FileDescriptor?
    var stderrWrite: FileDescriptor?
    /// /dev/null for discarded output.
    var nullWrite: FileDescriptor?
    /// The per-run output file (`--output-dir`), when there is one.
    var outputFile: FileDescriptor?
    /// A separate file for standard error (`.files`).
    var errorFile: FileDescriptor?
    var notify: NotifySocket?
    /// The listening socket of a launch on demand, passed as descriptor 3.
    var activation: ActivationListener?
    /// The X display's top-level windows (`--ready window`/`frame`),
    /// watched from before the spawn: the spawner's connection to the
    /// display, shared by its runs (`DisplayConnections`).
    var window: WindowWatch?
    let options: SpawnOptions

    /// The record socket's number in the child (LAUNCHPROF_RECORD_FD): 3,
    /// or 4 when 3 is an activated socket (systemd's protocol starts there).
    var recordDescriptor: Int32 { activation == nil ? 3 : 4 }

    init(options: SpawnOptions, program: String, window: WindowWatch? = nil) throws(LaunchError) {
        self.options = options
        self.window = window
        do throws(SystemCallError) {
            var ends: [Int32] = [-1, -1]
            try Syscall.check("socketpair", "record socket") { lp_record_socket(&ends) }
            (recordRead, recordWrite) = (FileDescriptor(ends[0]), FileDescriptor(ends[1]))
            stdinRead = try Self.open(options.input ?? "/dev/null", O_RDONLY)
            if options.captureOutput {
                (stdoutRead, stdoutWrite) = try Self.pipe()
                (stderrRead, stderrWrite) = try Self.pipe()
            }
            switch options.output {
            case .discard: nullWrite = try Self.open("/dev/null", O_WRONLY)
            case .inherit: break
            case .file(let path): outputFile = try Self.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o644)
            case .files(let stdout, let stderr):
                outputFile = try Self.open(stdout, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o600)
                errorFile = try Self.open(stderr, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o600)
            }
            if options.notifySocket { notify = try NotifySocket() }
        } catch {
            closeAll()
            throw .system(error, program: program)
        }
        if let endpoint = options.activation?.endpoint {
            do throws(LaunchError) {
                activation = try ActivationListener(endpoint, program: program)
            } catch {
                closeAll()
                throw error
            }
        }
    }

    private static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(try Syscall.check("open", path) { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// A close-on-exec pipe with a non-blocking read end (the harness's).
    private static func pipe() throws(SystemCallError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try Syscall.check("pipe2") { lp_pipe(&ends, O_CLOEXEC) }
        let (read, write) = (FileDescriptor(ends[0]), FileDescriptor(ends[1]))
        try read.setNonBlocking()
        return (read, write)
    }

    /// What the child gets, as (descriptor here, number in the child).
    func childDescriptors() -> [(fd: Int32, target: Int32)] {
        let output: (Int32, Int32)
        if options.captureOutput {
            output = (stdoutWrite.raw, stderrWrite.raw)
        } else {
            switch options.output {
            case .discard: output = (nullWrite.raw, nullWrite.raw)
            case .inherit: output = (1, 2)
            case .file: output = (outputFile.raw, outputFile.raw)
            case .files: output = (outputFile.raw, errorFile.raw)
            }
        }
        let listening = activation.map { [($0.fd, Int32(3))] } ?? []
        return [(stdinRead.raw, 0), (output.0, 1), (output.1, 2)] + listening + [(recordWrite.raw, recordDescriptor)]
    }

    /// After a successful spawn: closes the child's ends and hands the
    /// harness's ends to the launched process.
    func parentSide() -> ParentChannels {
        for fd in childEnds() { fd.close() }
        return parentChannels()
    }

    /// The harness's ends, without closing anything.
    func parentChannels() -> ParentChannels {
        ParentChannels(
            recordRead: recordRead, stdoutRead: stdoutRead, stderrRead: stderrRead,
            echo: echo, ownedOutputFile: ownsOutputFile ? outputFile : nil, notify: notify, activation: activation,
            window: window)
    }

    /// The descriptors only the child needs: closed here once the spawner
    /// has its copies.
    func childEnds() -> [FileDescriptor] {
        ([recordWrite, stdinRead, stdoutWrite, stderrWrite, nullWrite, errorFile] + (ownsOutputFile ? [] : [outputFile]))
            .compactMap { $0 }
    }

    /// Where captured output is copied (the run loop writes it on).
    private var echo: (stdout: Int32, stderr: Int32)? {
        guard options.captureOutput else { return nil }
        switch options.output {
        case .discard, .files: return nil
        case .inherit: return (1, 2)
        case .file: return (outputFile.raw, outputFile.raw)
        }
    }

    /// Whether the harness writes to the output file itself (captured output).
    private var ownsOutputFile: Bool {
        guard options.captureOutput, case .file = options.output else { return false }
        return true
    }

    /// After a failed spawn: closes everything.
    func closeAll() {
        for fd in [recordRead, recordWrite, stdinRead, stdoutRead, stdoutWrite, stderrRead, stderrWrite, nullWrite, outputFile, errorFile] {
            fd?.close()
        }
        activation?.close()
    }
}

/// The harness's ends of a running child's channels.
struct ParentChannels {
    /// The record socket (non-blocking, SO_PASSCRED).
    var recordRead: FileDescriptor?
    /// Read ends of stdout and stderr, when captured (non-blocking).
    var stdoutRead: FileDescriptor?
    var stderrRead: FileDescriptor?
    /// Where captured output is copied: the harness's stdout/stderr or the
    /// per-run file (owned by `ownedOutputFile`). nil discards it.
    var echo: (stdout: Int32, stderr: Int32)?
    /// The per-run file the harness writes captured output to, if any.
    var ownedOutputFile: FileDescriptor?

    /// Closes the harness's ends (the run is over).
    func closeAll() {
        for fd in [recordRead, stdoutRead, stderrRead, ownedOutputFile] { fd?.close() }
        activation?.close()
    }
    var notify: NotifySocket?
    /// The listening socket of a launch on demand: launchprof's copy, kept
    /// until the run ends (a Unix socket's path is removed then).
    var activation: ActivationListener?
    /// The X display's windows, for `--ready window`/`frame`.
    var window: WindowWatch?
}

extension Optional where Wrapped == FileDescriptor {
    /// The number to hand a spawn, or -1 for none.
    fileprivate var raw: Int32 { self?.rawValue ?? -1 }
}
