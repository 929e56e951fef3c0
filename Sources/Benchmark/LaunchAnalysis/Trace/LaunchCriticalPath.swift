/// The launch's critical path: the signpost intervals that led to launch
/// complete, on whatever threads they ran.
///
/// It is walked backwards from launch complete on the thread that recorded
/// it. At each point the path takes the interval that ended last before it
/// (and after the enclosing step began): the thread's own work, or, when the
/// thread was outside its named intervals, the work on another thread it was
/// waiting for (an `await` on the cooperative pool, a join, a lock). The walk
/// then continues from that interval's beginning on the thread that began it.
///
/// A pool thread runs many tasks, so its earlier intervals need not be the
/// launch's; the process's main thread runs only the program's own code. So
/// the thread's own interval is preferred over another thread's that ran
/// beside it (overlapping it and ending later) only where the thread is known
/// to be the launch's: on the main thread, and at launch complete itself.
///
/// An interval that contains path steps of its own (a parent that awaited a
/// child) is an enclosing step: its time is its children's and its own, so
/// only the leaves (`Step/isLeaf`) add up, and they never overlap. Only a
/// thread that can wait inside an interval encloses other threads' work: the
/// thread that completes the launch, or an interval that ended on another
/// thread than it began (an `await` that hopped); a synchronous interval
/// elsewhere encloses only its own thread's intervals.
///
/// What it cannot see: unnamed work, and which task an interval belonged to.
/// A thread outside its intervals is taken to be waiting for whatever ended
/// last; CPU time (the run's, or samples) says whether it was.
package struct LaunchCriticalPath: Sendable, Equatable {
    /// One interval on the path.
    package struct Step: Sendable, Equatable {
        /// The interval.
        package var interval: TraceInterval
        /// 0 for the path itself, 1 for the steps inside an enclosing step, and so on.
        package var depth: Int
        /// False when it encloses steps of the path (its time is theirs and its own).
        package var isLeaf: Bool
    }

    /// When launch complete was recorded (the walk's start).
    package var end: UInt64
    /// The thread that recorded it.
    package var endThreadID: UInt32
    /// The steps in time order (an enclosing step before its children).
    package var steps: [Step]

    /// The leaves: disjoint in time, their durations add up to the named part of the path.
    package var leaves: [Step] { steps.filter(\.isLeaf) }

    /// How deep the walk goes into enclosing steps.
    static let maximumDepth = 16

    /// The path of `trace` to `end` (its launch complete by default) from the
    /// thread that recorded it (the process's main thread when the trace has no
    /// launch-complete event); nil without an end.
    package init?(trace: Trace, end: UInt64? = nil) {
        let complete = trace.events.last { $0.kind == .launchComplete }
        guard let end = end ?? complete?.timestamp ?? trace.header.launchCompleteNanoseconds else { return nil }
        self.end = end
        self.endThreadID = complete?.threadID ?? trace.header.pid
        let paired = trace.pairIntervals()
        // Finished intervals that ended by the end, latest end first; among
        // equal ends the outermost (earliest start) first.
        let candidates = (paired.slices + paired.asyncIntervals)
            .filter { !$0.isUnfinished && $0.endTimestamp <= end }
            .sorted { ($0.endTimestamp, $1.startTimestamp) > ($1.endTimestamp, $0.startTimestamp) }
        var steps: [Step] = []
        Self.walk(
            candidates, from: end, on: endThreadID, after: 0, startingAt: 0, confined: false, completingThread: endThreadID,
            mainThread: trace.header.pid, depth: 0, into: &steps)
        self.steps = steps
    }

    /// Appends the chain ending at `cursor` on `thread` that began at or
    /// after `lower` (on `thread` only, when `confined`), with each step's
    /// children after it, in time order.
    private static func walk(
        _ candidates: [TraceInterval], from cursor: UInt64, on thread: UInt32, after lower: UInt64, startingAt first: Int,
        confined: Bool, completingThread: UInt32, mainThread: UInt32, depth: Int, into steps: inout [Step]
    ) {
        var chain: [(index: Int, children: [Step])] = []
        var cursor = cursor, thread = thread
        // Candidates are sorted by end, latest first. The cursor only moves
        // back (each step starts before it), so the first candidate that can
        // fit only moves forward.
        var position = first
        while true {
            while position < candidates.count, candidates[position].endTimestamp > cursor { position += 1 }
            func fits(_ interval: TraceInterval) -> Bool {
                interval.startTimestamp < cursor && interval.startTimestamp >= lower && (!confined || interval.endThreadID == thread)
            }
            // The interval that ended last, and the thread's own that ended last.
            var latest: Int?, own: Int?
            var scan = position
            while scan < candidates.count, candidates[scan].endTimestamp > lower {
                let interval = candidates[scan]
                if let latest, interval.endTimestamp <= candidates[latest].startTimestamp { break }
                if fits(interval) {
                    if latest == nil { latest = scan }
                    if interval.endThreadID == thread {
                        own = scan
                        break
                    }
                }
                scan += 1
            }
            // The thread's own work before another thread's that ran beside
            // it and ended later, where the thread is known to be the
            // launch's (the main thread; the first step back from launch
            // complete); the one that ended last elsewhere.
            let known = thread == mainThread || (depth == 0 && chain.isEmpty)
            guard let chosen = known ? own ?? latest : latest else { break }
            let interval = candidates[chosen]
            var children: [Step] = []
            // Another thread's work inside an interval was awaited by it only
            // when its thread could wait: an interval that ended on another
            // thread than it began (an `await` across a hop), or one on the
            // thread that completes the launch (main awaiting its work, or
            // joining its threads). A synchronous interval on any other
            // thread ran beside it.
            let awaits = interval.beginThreadID != interval.endThreadID || interval.endThreadID == completingThread
            if depth < maximumDepth {
                // Its children end by its end and come after it in the order
                // (an equal end with a later start sorts after it).
                walk(
                    candidates, from: interval.endTimestamp, on: interval.endThreadID, after: interval.startTimestamp,
                    startingAt: chosen + 1, confined: !awaits, completingThread: completingThread, mainThread: mainThread,
                    depth: depth + 1,
                    into: &children)
            }
            chain.append((chosen, children))
            cursor = interval.startTimestamp
            thread = interval.beginThreadID
        }
        for (index, children) in chain.reversed() {
            steps.append(Step(interval: candidates[index], depth: depth, isLeaf: children.isEmpty))
            steps += children
        }
    }
}
