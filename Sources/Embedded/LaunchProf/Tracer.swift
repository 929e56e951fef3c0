import CLaunchProfSampler
import CLaunchProfSupport
import LaunchProfFiles

/// Process-wide switches of the tracer, and writing its trace.
public enum Tracer {
    /// Whether events are being recorded.
    public static var isEnabled: Bool { lp_tracing_enabled() != 0 }

    /// Starts recording (without an environment variable asking for it).
    public static func enable() { lp_set_tracing_enabled(1) }

    /// Stops recording; events already recorded stay.
    public static func disable() { lp_set_tracing_enabled(0) }

    /// Sizes the process-wide ring. Only effective before the first event is
    /// recorded (the ring is fixed from then on); returns whether it took.
    /// Without it, LAUNCHPROF_BUFFER_EVENTS (default 262144) and
    /// LAUNCHPROF_BUFFER_POLICY (`drop-newest`, the default, or
    /// `overwrite-oldest`) decide.
    @discardableResult
    public static func configure(capacity: Int, policy: OverflowPolicy = .dropNewest) -> Bool {
        guard capacity > 0, let ring = lp_ring_create(UInt64(capacity), policy.cValue) else { return false }
        if lp_global_ring_install(ring) == ring { return true }
        lp_ring_destroy(ring)
        return false
    }

    /// Names the calling thread, as the trace and `top -H` show it (the
    /// kernel keeps 15 bytes).
    public static func setCurrentThreadName(_ name: String) {
        lp_set_thread_name(name)
    }

    /// Counters of the process-wide ring.
    public static var statistics: TraceRingStatistics? { TraceRing.global?.statistics }

    /// The path LAUNCHPROF_TRACE names, if any.
    public static var tracePath: String? { lp_trace_path().map { String(cString: $0) } }

    /// Writes the trace recorded so far to LAUNCHPROF_TRACE (temporary file,
    /// then rename). Does nothing when LAUNCHPROF_TRACE is not set.
    public static func flush() throws(TraceWriteError) {
        guard let path = tracePath else { return }
        try write(to: path)
    }

    /// Writes the trace recorded so far to `path` (temporary file, then rename).
    public static func write(to path: String) throws(TraceWriteError) {
        guard let ring = TraceRing.global else { throw .outOfMemory }
        let bytes = TraceEncoder.encode(ring: ring)
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .file(error)
        }
    }
}

/// Called by the C `atexit` handler registered when LAUNCHPROF_TRACE is set.
@_cdecl("launchprof_write_trace_at_exit")
func launchprofWriteTraceAtExit() {
    lp_sampler_stop()  // a program that never completed its launch samples until exit
    do {
        try Tracer.flush()
    } catch {
        StandardStream.error.write("launchprof: \(error)\n")
    }
}
