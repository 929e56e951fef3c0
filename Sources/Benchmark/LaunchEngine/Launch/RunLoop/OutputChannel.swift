import Glibc
import LaunchProfFiles
import LaunchSupport

/// One of the program's output streams, when launchprof reads it: for an
/// `output:` probe (ready at the first line the pattern matches), and to
/// copy it to launchprof's own output (`--show-output`). Read in bounded
/// slices; once ready, only drained.
final class OutputChannel: RunEventSource {
    private var descriptor: FileDescriptor?
    private let echo: Int32?
    private let pattern: TextPattern?
    private var lines = LineBuffer()
    private var fired = false
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Bytes read per round.
    static let slice = 256 * 1024

    init(_ descriptor: FileDescriptor, echo: Int32?, pattern: TextPattern?) {
        self.descriptor = descriptor
        self.echo = echo
        self.pattern = pattern
    }

    var pollRequest: pollfd? { descriptor.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) } }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard revents != 0, let descriptor else { return [] }
        var events: [RunEvent] = []
        var total = 0
        while total < Self.slice {
            var failed = false
            let read = chunk.withUnsafeMutableBytes { buffer -> Int? in
                do { return try descriptor.read(into: buffer) } catch {
                    failed = true
                    return nil
                }
            }
            guard !failed else {
                self.descriptor = nil  // a read error ends the stream as its end of file does
                return events
            }
            guard let count = read else { return events }  // nothing more now
            if count == 0 {
                lines.flush { match($0, into: &events) }
                self.descriptor = nil
                return events
            }
            total += count
            if let echo {
                // launchprof's own stdout or stderr (or the output file):
                // through the writer that never traps; a stream that would
                // block loses the chunk rather than hold up the loop.
                let stream = StandardStream(descriptor: echo, blockedBudget: 0)
                _ = chunk.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            }
            guard pattern != nil, !fired else { continue }
            chunk.withUnsafeBytes { bytes in
                lines.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(count))) { match($0, into: &events) }
            }
        }
        return events
    }

    private func match(_ line: Substring, into events: inout [RunEvent]) {
        // Linear in the line (at most TextPattern.maximumText scalars of it):
        // no line can hold the loop.
        guard !fired, let pattern, pattern.matches(line) else { return }
        fired = true
        events.append(.ready(at: monotonicNanoseconds()))
    }
}
