import Dispatch
import Glibc

/// SIGTERM and SIGINT as a readable pipe, so the accept loop can poll for
/// them next to the listener. Dispatch signal sources receive the signals on
/// a queue, not in a signal handler, so the reaction is ordinary code.
final class StopSignals: @unchecked Sendable {
    // @unchecked: the descriptors are immutable after install; sources are
    // only touched by install.
    let readEnd: Int32
    private let writeEnd: Int32
    private var sources: [any DispatchSourceSignal] = []

    private init(readEnd: Int32, writeEnd: Int32) {
        self.readEnd = readEnd
        self.writeEnd = writeEnd
    }

    static func install() -> StopSignals {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fail("cannot create a pipe: \(String(cString: strerror(errno)))") }
        let stop = StopSignals(readEnd: ends[0], writeEnd: ends[1])
        let queue = DispatchQueue(label: "lp-sample-server.signals")
        for number in [SIGTERM, SIGINT] {
            // Ignored first, so the source (not the default action) sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            let writeEnd = stop.writeEnd
            source.setEventHandler {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
            source.resume()
            stop.sources.append(source)
        }
        return stop
    }
}
