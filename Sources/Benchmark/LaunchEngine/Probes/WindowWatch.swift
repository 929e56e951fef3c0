import CLaunchWindow
import Glibc

/// A connection to the X display that reports top-level windows, for
/// `--ready window` and `--ready frame` (docs/window.md). One per display
/// for a whole benchmark (`DisplayConnections`): made before the first
/// spawn, so no window of a run can be created before it watches, and kept,
/// so a server that resets when its last client leaves (Xvfb without
/// `-noreset`, as xvfb-run starts it) never resets under a benchmark.
/// libxcb is loaded only here, with dlopen.
///
/// Nothing it does waits for the server: opening is bounded by a deadline
/// and the interrupt, and a question about a window (``ask(_:about:)``) is
/// a request whose answer the run loop collects (``answer(_:)``) when the
/// descriptor is readable. A frozen server leaves questions unanswered
/// until the run's timeout; it never holds the loop.
final class WindowWatch {
    private let watch: OpaquePointer
    /// The display it is connected to, for messages.
    let display: String

    /// Connects to `display` (nil: $DISPLAY), trying a refused connection
    /// again until `deadline` (CLOCK_MONOTONIC), and giving up at once when
    /// `interrupt` (a descriptor, -1: none) is readable.
    init(display: String?, deadline: UInt64, interrupt: Int32) throws(LaunchError) {
        var error = [CChar](repeating: 0, count: 512)
        var status: Int32 = 0
        let opened =
            display.map { name in lp_window_open(name, deadline, interrupt, &status, &error, error.count) }
            ?? lp_window_open(nil, deadline, interrupt, &status, &error, error.count)
        guard let opened else {
            throw .window(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        watch = opened
        self.display = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
    }

    deinit { lp_window_close(watch) }

    /// The connection's descriptor, for poll.
    var fd: Int32 { lp_window_fd(watch) }

    /// Whether the connection broke (the server died or reset).
    var isBroken: Bool { lp_window_is_broken(watch) != 0 }

    /// Whether the server can report drawing (DAMAGE), which `frame` needs.
    var reportsDrawing: Bool { lp_window_has_damage(watch) != 0 }

    /// The next event already received, or nil.
    func next() -> lp_window_event? {
        let event = lp_window_next(watch)
        return event.kind == Int32(LP_WINDOW_NONE.rawValue) ? nil : event
    }

    /// Watches `window`'s own map and title, and (with `drawing`) what is
    /// drawn into it.
    func follow(_ window: UInt32, drawing: Bool) { lp_window_follow(watch, window, drawing ? 1 : 0) }

    /// A question about a window, answered later.
    enum Question: Int32 {
        case owner = 1, mapped, title, blank
    }

    /// What the server said.
    enum Answer: Equatable {
        /// The owner's pid (0: unknown), whether it is mapped or blank (1/0).
        case value(Int32)
        case title(String)
        /// The window no longer exists.
        case gone
        /// The connection broke.
        case broken
    }

    /// Asks `question` about `window`: a ticket, or nil when too many
    /// questions are unanswered (`LP_WINDOW_MAX_ASKED`; ask again later).
    func ask(_ question: Question, about window: UInt32) -> Int32? {
        let ticket = lp_window_ask(watch, window, question.rawValue)
        return ticket < 0 ? nil : ticket
    }

    /// The answer to `ticket` if it came (then the ticket is spent), else
    /// nil; with the sequence number of the request it answers: it says
    /// what the server knew after every event of a lower sequence.
    func answer(_ ticket: Int32) -> (answer: Answer, sequence: UInt32)? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let answer = lp_window_answer(watch, ticket, &buffer, buffer.count)
        switch answer.state {
        case 0: return nil
        case -1: return (.gone, answer.sequence)
        case -2: return (.broken, answer.sequence)
        default:
            guard buffer[0] != 0 else { return (.value(answer.value), answer.sequence) }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (.title(text), answer.sequence)
        }
    }

    /// Forgets every unanswered question and every queued event: a run begins.
    func forgetAll() { lp_window_forget_all(watch) }

    /// How many questions the server has not answered, and since when
    /// (CLOCK_MONOTONIC).
    var unanswered: (count: Int, since: UInt64) {
        var oldest: UInt64 = 0
        let count = lp_window_unanswered(watch, &oldest)
        return (Int(count), oldest)
    }
}
