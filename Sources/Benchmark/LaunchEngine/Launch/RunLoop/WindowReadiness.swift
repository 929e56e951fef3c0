import CLaunchWindow
import Glibc
import LaunchSupport

/// `--ready window` and `--ready frame`: the launched tree's first top-level
/// window, as a person sees it appear.
///
/// Each window created as a child of the root is tied to the run by its
/// client's pid (the X-Resource extension's, which every toolkit has, since
/// it is the server's view of the connection; else _NET_WM_PID) and kept
/// when that pid is the launched process or one of its descendants.
/// Override-redirect windows (menus, tooltips, some splash screens) do not
/// count. `window` is ready at the first such window's map whose title
/// matches; `frame` at the first drawing into it after which the part of it
/// on the screen is no longer one flat colour (the server's background paint
/// at map, an empty window or a blank splash are not a frame). The map time
/// is kept as the run's `first window` milestone either way.
///
/// Nothing here waits for the X server. Events are read and timed as they
/// come, each becomes a step that asks the server what it needs (whose
/// window, mapped, its title, its pixels) and is taken up again when the
/// answers are there, in the order the events came; the connection's
/// descriptor is polled with the run's other sources, so a server that
/// stops answering leaves the run to its timeout and Ctrl-C.
final class WindowReadiness: RunEventSource {
    private let watch: WindowWatch
    private let process: LaunchedProcess
    private let waitsForFrame: Bool
    private let title: TextPattern?
    /// The run's windows, and those already judged not to be.
    private var ours: Set<UInt32> = []
    private var others: Set<UInt32> = []
    /// When each of ours was mapped (with a matching title).
    private var mapped: [UInt32: UInt64] = [:]
    private var fired = false
    private var broken = false
    /// Whether the last round stopped at its caps rather than with nothing left.
    private var stoppedAtCap = false
    /// Events read, oldest first, each waiting for the answers it needs.
    private var steps: [Step] = []
    /// What was seen and did not count, for the run's notes.
    private var refusals = WindowRefusals()
    /// The first window's map (CLOCK_MONOTONIC).
    private(set) var firstWindowAt: UInt64?
    /// Events read per round.
    static let slice = 512
    /// Events waiting for answers at most (a server that floods events
    /// while it answers nothing).
    static let waitingLimit = 4_096

    init(_ watch: WindowWatch, process: LaunchedProcess, probe: ReadyProbe) {
        self.watch = watch
        self.process = process
        var pattern: String?
        switch probe {
        case .window(let text):
            waitsForFrame = false
            pattern = text
        case .frame(let text):
            waitsForFrame = true
            pattern = text
        default:
            waitsForFrame = false
        }
        title = pattern.flatMap { try? TextPattern($0) }
    }

    var pollRequest: pollfd? { fired ? nil : pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0) }

    /// While questions are out, the loop looks again every 20 ms: an answer
    /// libxcb read from the socket while polling for another (so the
    /// descriptor is no longer readable) is taken then at the latest.
    /// After a round that stopped at its caps, at once: events may wait in
    /// libxcb's memory.
    var retryInterval: UInt64? {
        if fired { return nil }
        if stoppedAtCap { return 0 }
        return steps.isEmpty ? nil : 20_000_000
    }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard !fired else { return [] }
        if waitsForFrame, !watch.reportsDrawing {
            fired = true
            return [.failed(.measure("--ready frame: the X server at '\(watch.display)' has no DAMAGE extension; use --ready window"))]
        }
        // Rounds until nothing moves: libxcb reads the socket while it
        // looks for an answer, so events and other answers can arrive in
        // its memory then, where poll would not see them.
        stoppedAtCap = true
        for _ in 0..<16 {
            let socketWasEmpty = !Self.isReadable(watch.fd)
            let read = readEvents()
            let (progressed, ready) = advance()
            if let ready {
                fired = true
                return [ready]
            }
            if read == 0, !progressed, socketWasEmpty {
                stoppedAtCap = false
                break
            }
        }
        return []
    }

    /// Every event already received is taken (and timed) before any is
    /// handled: an event behind others in the queue keeps the time it
    /// arrived, not the time the answers about the others came.
    private func readEvents() -> Int {
        var read = 0
        while read < Self.slice, steps.count < Self.waitingLimit, let event = watch.next() {
            steps.append(Step(event: event))
            read += 1
        }
        return read
    }

    /// Takes up the waiting steps in order until one still lacks an answer:
    /// whether any moved, and the run's event if one fired.
    private func advance() -> (Bool, RunEvent?) {
        var progressed = false
        while !steps.isEmpty {
            var step = steps[0]
            let outcome = handle(&step)
            steps[0] = step
            if step.answered { progressed = true }
            steps[0].answered = false
            guard case .done(let event) = outcome else { break }
            steps.removeFirst()
            progressed = true
            if broken { return (true, brokenEvent) }
            if let event { return (true, event) }
        }
        if broken { return (true, brokenEvent) }
        return (progressed, nil)
    }

    private var brokenEvent: RunEvent {
        .failed(.measure("--ready window/frame: the connection to the X server at '\(watch.display)' broke"))
    }

    private func handle(_ step: inout Step) -> Outcome {
        let event = step.event
        let window = event.window
        switch Int(event.kind) {
        case Int(LP_WINDOW_CREATED.rawValue):
            guard event.override_redirect == 0 else { return .done(nil) }
            guard let isOurs = isOurs(window, &step) else { return .waiting }
            // Mapped already before it could be followed (a fast client, a
            // busy launchprof) and its MapNotify not among the events read:
            // its map is no later than the answer, and not as early as its
            // creation.
            guard isOurs, mapped[window] == nil, !mapIsQueued(window) else { return .done(nil) }
            guard let isMapped = ask(.mapped, about: window, &step) else { return .waiting }
            guard isMapped == .value(1) else { return .done(nil) }
            if step.mapSeenAt == nil { step.mapSeenAt = monotonicNanoseconds() }
            return map(window, at: step.mapSeenAt ?? event.nanoseconds, &step)
        case Int(LP_WINDOW_MAPPED.rawValue):
            guard mapped[window] == nil else { return .done(nil) }
            guard event.override_redirect == 0 else {
                refusals.overrideRedirect.insert(window)
                return .done(nil)
            }
            guard let isOurs = isOurs(window, &step) else { return .waiting }
            guard isOurs else { return .done(nil) }
            return map(window, at: event.nanoseconds, &step)
        case Int(LP_WINDOW_RENAMED.rawValue):
            // A title set after the map: the window counts from then.
            guard ours.contains(window), mapped[window] == nil else { return .done(nil) }
            guard let isMapped = ask(.mapped, about: window, &step) else { return .waiting }
            guard isMapped == .value(1) else { return .done(nil) }
            return map(window, at: event.nanoseconds, &step)
        case Int(LP_WINDOW_DAMAGED.rawValue):
            guard waitsForFrame, mapped[window] != nil else { return .done(nil) }
            guard let blank = ask(.blank, about: window, &step) else { return .waiting }
            guard blank == .value(0) else {
                refusals.blankDrawings[window, default: 0] += 1
                return .done(nil)
            }
            return .done(.ready(at: event.nanoseconds))
        case Int(LP_WINDOW_DESTROYED.rawValue):
            // Its id is free: the server gives it to the next client that
            // connects (often the next run's program, or this run's after
            // another client left), and what was judged of it does not hold
            // for the window that takes it.
            ours.remove(window)
            others.remove(window)
            mapped[window] = nil
            return .done(nil)
        case Int(LP_WINDOW_BROKEN.rawValue):
            broken = true
            return .done(nil)
        default:
            return .done(nil)
        }
    }

    /// Whether `window`, as the step being handled knew it, was destroyed
    /// before the server handled request `sequence`: then an answer to
    /// that request is about nothing, or about another client's window that
    /// took its id. A stale event (a run's program's window, read after the
    /// next run began) asked about once the next program had made a window
    /// of the same id was judged that program's (its map the next run's
    /// ready, early), or judged another's and the new window with it (the
    /// run never ready). Every event the server made before that answer
    /// came before it on the connection, so all are read first.
    private func destroyed(_ window: UInt32, before sequence: UInt32) -> Bool {
        while readEvents() == Self.slice {}
        return steps.dropFirst().contains {
            Int($0.event.kind) == Int(LP_WINDOW_DESTROYED.rawValue) && $0.event.window == window
                && Int32(bitPattern: sequence &- $0.event.sequence) > 0
        }
    }

    /// Whether a MapNotify of `window` waits behind the step being handled.
    private func mapIsQueued(_ window: UInt32) -> Bool {
        steps.dropFirst().contains { Int($0.event.kind) == Int(LP_WINDOW_MAPPED.rawValue) && $0.event.window == window }
    }

    /// Whether `window` belongs to the run (nil: the server has not said
    /// yet); the first time it is known, ours are followed (their own map,
    /// title and drawing) and others are kept for the run's notes.
    private func isOurs(_ window: UInt32, _ step: inout Step) -> Bool? {
        if ours.contains(window) { return true }
        if others.contains(window) { return false }
        guard let owner = ask(.owner, about: window, &step) else { return nil }
        guard case .value(let pid) = owner, pid > 0, process.isInTree(pid) else {
            others.insert(window)
            if case .value(let pid) = owner { refusals.foreign.append((window, pid, ProcessName.of(pid))) }
            return false
        }
        watch.follow(window, drawing: waitsForFrame)
        ours.insert(window)
        return true
    }

    /// One of ours is on screen at `time`: ready for `window` when its title
    /// matches; the start of the wait for its frame otherwise.
    private func map(_ window: UInt32, at time: UInt64, _ step: inout Step) -> Outcome {
        if let title {
            guard let answer = ask(.title, about: window, &step) else { return .waiting }
            let text: String
            switch answer {
            case .title(let value): text = value
            case .value: text = ""
            default: return .done(nil)
            }
            guard title.matches(text) else {
                refusals.titles[window] = text
                return .done(nil)
            }
        }
        mapped[window] = time
        if firstWindowAt == nil { firstWindowAt = time }
        return .done(waitsForFrame ? nil : .ready(at: time))
    }

    /// The answer to `question` about `window` for this step, asked the
    /// first time; nil until the server answers.
    private func ask(_ question: WindowWatch.Question, about window: UInt32, _ step: inout Step) -> WindowWatch.Answer? {
        if let answer = step.answers[question] { return answer }
        if let ticket = step.tickets[question] {
            guard let (reply, sequence) = watch.answer(ticket) else { return nil }
            let answer = reply != .broken && destroyed(window, before: sequence) ? .gone : reply
            step.tickets[question] = nil
            step.answers[question] = answer
            step.answered = true
            if answer == .broken { broken = true }
            return answer
        }
        // Too many questions out: asked again when answers free a place.
        guard let ticket = watch.ask(question, about: window) else { return nil }
        step.tickets[question] = ticket
        return ask(question, about: window, &step)
    }

    /// One sentence per kind of window that was seen and did not count,
    /// and whether the server stopped answering: what a run that timed out
    /// says about the display.
    var ignored: [String] {
        let (unanswered, since) = watch.unanswered
        let silence = unanswered > 0 && !fired ? monotonicNanoseconds() &- since : nil
        return refusals.sentences(
            launched: process.pid, pattern: title?.source, waitsForFrame: waitsForFrame, display: watch.display,
            unanswered: silence.map { (unanswered, $0) })
    }

    private static func isReadable(_ fd: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// An event waiting for the answers it needs.
    private struct Step {
        let event: lp_window_event
        var tickets: [WindowWatch.Question: Int32] = [:]
        var answers: [WindowWatch.Question: WindowWatch.Answer] = [:]
        /// When the server said a window created earlier is already mapped.
        var mapSeenAt: UInt64?
        /// Whether an answer came in the last attempt.
        var answered = false
    }

    private enum Outcome {
        case waiting
        case done(RunEvent?)
    }
}
