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
/// matches; `frame` at the first drawing into it after which it is no
/// longer one flat colour (the server's background paint at map, an empty
/// window or a blank splash are not a frame). The map time is kept as the
/// run's `first window` milestone either way.
final class WindowReadiness: RunEventSource {
    private let watch: WindowWatch
    private let process: LaunchedProcess
    private let waitsForFrame: Bool
    private let title: Regex<AnyRegexOutput>?
    /// The run's windows, and those already judged not to be.
    private var ours: Set<UInt32> = []
    private var others: Set<UInt32> = []
    /// When each of ours was mapped (with a matching title).
    private var mapped: [UInt32: UInt64] = [:]
    private var fired = false
    /// The windows whose MapNotify is among the events being handled.
    private var mapsInBatch: Set<UInt32> = []
    /// The first window's map (CLOCK_MONOTONIC).
    private(set) var firstWindowAt: UInt64?
    /// Events read per round.
    static let slice = 512

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
        title = pattern.flatMap { try? Regex($0) }
    }

    var pollRequest: pollfd? { fired ? nil : pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0) }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard !fired else { return [] }
        if waitsForFrame, !watch.reportsDrawing {
            fired = true
            return [.failed(.measure("--ready frame: the X server at '\(watch.display)' has no DAMAGE extension; use --ready window"))]
        }
        // Every event already received is taken (and timed) before any is
        // handled: handling a new window asks the server about it (round
        // trips), and an event behind it in the queue must keep the time it
        // arrived, not the time those answers came.
        var received: [lp_window_event] = []
        while received.count < Self.slice, let event = watch.next() { received.append(event) }
        mapsInBatch = Set(received.filter { Int($0.kind) == Int(LP_WINDOW_MAPPED.rawValue) }.map(\.window))
        for event in received {
            if let ready = handle(event) {
                fired = true
                return [ready]
            }
        }
        return []
    }

    private func handle(_ event: lp_window_event) -> RunEvent? {
        let window = event.window
        switch Int(event.kind) {
        case Int(LP_WINDOW_CREATED.rawValue):
            guard event.override_redirect == 0, isOurs(window) else { return nil }
            // Mapped already before it could be followed (a fast client, a
            // busy launchprof) and its MapNotify not in this batch: its map
            // is no later than now, and not as early as its creation.
            if !mapsInBatch.contains(window), watch.isMapped(window) == true {
                return mapped(window, at: monotonicNanoseconds())
            }
        case Int(LP_WINDOW_MAPPED.rawValue):
            guard event.override_redirect == 0, mapped[window] == nil, isOurs(window) else { return nil }
            return mapped(window, at: event.nanoseconds)
        case Int(LP_WINDOW_RENAMED.rawValue):
            // A title set after the map: the window counts from then.
            guard ours.contains(window), mapped[window] == nil, watch.isMapped(window) == true else { return nil }
            return mapped(window, at: event.nanoseconds)
        case Int(LP_WINDOW_DAMAGED.rawValue):
            guard waitsForFrame, mapped[window] != nil, watch.isBlank(window) == false else { return nil }
            return .ready(at: event.nanoseconds)
        case Int(LP_WINDOW_BROKEN.rawValue):
            return .failed(.measure("--ready window/frame: the connection to the X server at '\(watch.display)' broke"))
        default:
            break
        }
        return nil
    }

    /// Whether `window` belongs to the run; the first time it is asked,
    /// ours are followed (their own map, title and drawing).
    private func isOurs(_ window: UInt32) -> Bool {
        if ours.contains(window) { return true }
        if others.contains(window) { return false }
        guard let pid = watch.owner(of: window), process.isInTree(pid), watch.follow(window, drawing: waitsForFrame) else {
            others.insert(window)
            return false
        }
        ours.insert(window)
        return true
    }

    /// One of ours is on screen at `time`: ready for `window` when its title
    /// matches; the start of the wait for its frame otherwise.
    private func mapped(_ window: UInt32, at time: UInt64) -> RunEvent? {
        if let title {
            guard let text = watch.title(of: window), (try? title.firstMatch(in: text)) != nil else { return nil }
        }
        mapped[window] = time
        if firstWindowAt == nil { firstWindowAt = time }
        return waitsForFrame ? nil : .ready(at: time)
    }
}
