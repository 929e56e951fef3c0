import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// The file the spawner copies a launch's kernel samples to
/// (`KernelSampling`) and launchprof unwinds them from, open from before
/// the spawn until the samples are read.
///
/// `profile`, `record` and `run --profile` use an anonymous one
/// (``anonymous(in:)``): nothing a crash of launchprof could strand (it
/// once was `NAME.lptrace.samples`, up to 256 MiB, left behind by a
/// SIGKILL), and no name another program could put a FIFO at. A library
/// caller that wants the raw records kept names a file (``file(at:)``),
/// which must be a regular file.
package final class SampleSink: Sendable {
    /// Read and write; the spawner gets its own copy with the request.
    package let descriptor: FileDescriptor
    /// What messages call it: the path, or where the anonymous file lives.
    package let name: String

    private init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// A file with no name in `directory` (O_TMPFILE, so the samples go to
    /// the disk the trace goes to, not to memory), or, on a filesystem
    /// without O_TMPFILE, a memfd. The kernel frees it with its last
    /// descriptor: after the samples are read, or when launchprof and the
    /// spawner are gone, however they ended.
    package static func anonymous(in directory: String) throws(SampleSinkError) -> SampleSink {
        var inMemory: Int32 = 0
        let fd = lp_sample_sink_anonymous(directory, &inMemory)
        guard fd >= 0 else { throw .cannotCreate(directory: directory, errno: errno) }
        let name = inMemory != 0 ? "the sample file in memory" : "the unnamed sample file in '\(directory)'"
        return SampleSink(descriptor: FileDescriptor(fd), name: name)
    }

    /// The regular file at `path`, created (0600) or emptied. Opened so that
    /// nothing at the path can make it wait or redirect it (O_NONBLOCK, so a
    /// FIFO without a reader does not block the open forever; O_NOFOLLOW, so
    /// a symbolic link is not followed; O_NOCTTY), then checked with fstat:
    /// a FIFO, a device, a socket or a directory is refused, untouched.
    package static func file(at path: String) throws(SampleSinkError) -> SampleSink {
        let raw = Glibc.open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0o600)
        guard raw >= 0 else {
            let code = errno
            // What refused it (O_NOFOLLOW's ELOOP for a link, EISDIR, ENXIO
            // for a socket) is named by what is there.
            var status = stat()
            if lstat(path, &status) == 0, let kind = RegularFile.kind(status.st_mode) {
                throw .notRegular(path: path, kind: kind)
            }
            throw .cannotOpen(path: path, errno: code)
        }
        let descriptor = FileDescriptor(raw)
        var status = stat()
        guard fstat(raw, &status) == 0 else { throw .cannotOpen(path: path, errno: errno) }
        if let kind = RegularFile.kind(status.st_mode) { throw .notRegular(path: path, kind: kind) }
        // Emptied only once it is known to be a regular file; the spawner
        // writes blocking from now on.
        guard ftruncate(raw, 0) == 0 else { throw .cannotOpen(path: path, errno: errno) }
        do {
            try descriptor.setNonBlocking(false)
        } catch {
            throw .cannotOpen(path: path, errno: error.errno)
        }
        return SampleSink(descriptor: descriptor, name: "'\(path)'")
    }
}

/// Why a `SampleSink` could not be made.
package enum SampleSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The anonymous file could not be created in `directory`.
    case cannotCreate(directory: String, errno: Int32)
    /// The file at `path` could not be opened or emptied.
    case cannotOpen(path: String, errno: Int32)
    /// What is at `path` is not a regular file: `kind` says what it is.
    case notRegular(path: String, kind: String)

    package var description: String {
        switch self {
        case .cannotCreate(let directory, let code):
            "cannot create the sample file in '\(directory)': \(String(cString: strerror(code)))"
        case .cannotOpen(let path, let code):
            "cannot open the sample sink '\(path)': \(String(cString: strerror(code)))"
        case .notRegular(let path, let kind):
            "the sample sink '\(path)' is \(kind), not a regular file: samples are written only to a regular file "
                + "(remove it, or choose another path)"
        }
    }
}
