import CLaunchProfSupport

/// Records intervals and events into the process's trace ring.
///
/// Shaped like Apple's `OSSignposter`. Names are `StaticString`s: the hot path
/// stores the string's address and resolves its text only when the trace is
/// written, so recording an event is one clock read and a few stores — no
/// allocation, no hashing, no lock. An interval's begin and end also read the
/// thread's CPU time until launch complete, unless they carry a value
/// (`ThreadCPUTime`: a system call, see docs/tracer.md).
///
/// ```swift
/// let signposter = Signposter(subsystem: "com.example.app", category: "launch")
/// let state = signposter.beginInterval("load config")
/// loadConfig()
/// signposter.endInterval("load config", state)
/// ```
public struct Signposter: Sendable {
    /// The subsystem named at creation (for example a reverse-DNS name); each event records its subsystem and category.
    public let subsystem: String
    /// The category named at creation ("launch", "network").
    public let category: String
    @usableFromInline package let categoryIndex: UInt16

    /// Registers (once) the subsystem and category; cheap to create again.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        self.categoryIndex = Registry.shared.category(subsystem: subsystem, category: category)
    }

    /// Whether events are being recorded. Tracing is on when the process was
    /// started by `launchprof` (LAUNCHPROF_TRACE or LAUNCHPROF_RECORD_FD set),
    /// with LAUNCHPROF_ENABLE=1, or after ``Tracer/enable()``.
    @inlinable
    public var isEnabled: Bool { lp_tracing_enabled() != 0 }

    /// A fresh id for intervals you pair yourself.
    @inlinable
    public func makeSignpostID() -> SignpostID { SignpostID.make() }

    // MARK: - Intervals

    /// Starts an interval. Pass the returned state to ``endInterval(_:_:)``.
    ///
    /// With tracing disabled, this reads the enabled flag and nothing else:
    /// no id is made (the state carries the id given), no clock is read.
    @inlinable
    public func beginInterval(_ name: StaticString, id: SignpostID = .exclusive) -> SignpostIntervalState {
        guard lp_tracing_enabled() != 0 else { return SignpostIntervalState(id: id, category: categoryIndex) }
        let id = id == .exclusive ? SignpostID.make() : id
        let cpu = ThreadCPUTime.stamp
        lp_record(UInt8(LP_KIND_BEGIN), Names.encode(name), id.rawValue, cpu.argument, cpu.flags, categoryIndex)
        return SignpostIntervalState(id: id, category: categoryIndex)
    }

    /// Starts an interval carrying a numeric argument (with tracing disabled,
    /// only the enabled flag is read, as in ``beginInterval(_:id:)``).
    @inlinable
    public func beginInterval(_ name: StaticString, id: SignpostID = .exclusive, value: Int64) -> SignpostIntervalState {
        guard lp_tracing_enabled() != 0 else { return SignpostIntervalState(id: id, category: categoryIndex) }
        let id = id == .exclusive ? SignpostID.make() : id
        lp_record(UInt8(LP_KIND_BEGIN), Names.encode(name), id.rawValue, value, UInt8(LP_FLAG_HAS_ARG), categoryIndex)
        return SignpostIntervalState(id: id, category: categoryIndex)
    }

    /// Ends the interval `state` came from (with tracing disabled, only the
    /// enabled flag is read).
    @inlinable
    public func endInterval(_ name: StaticString, _ state: SignpostIntervalState) {
        guard lp_tracing_enabled() != 0 else { return }
        let cpu = ThreadCPUTime.stamp
        lp_record(UInt8(LP_KIND_END), Names.encode(name), state.id.rawValue, cpu.argument, cpu.flags, state.category)
    }

    /// Ends the interval `state` came from, with a numeric argument.
    @inlinable
    public func endInterval(_ name: StaticString, _ state: SignpostIntervalState, value: Int64) {
        lp_record(UInt8(LP_KIND_END), Names.encode(name), state.id.rawValue, value, UInt8(LP_FLAG_HAS_ARG), state.category)
    }

    // MARK: - Events

    /// Records a point in time.
    @inlinable
    public func emitEvent(_ name: StaticString, id: SignpostID = .exclusive) {
        lp_record(UInt8(LP_KIND_EVENT), Names.encode(name), id.rawValue, 0, 0, categoryIndex)
    }

    /// Records a point in time with a numeric argument.
    @inlinable
    public func emitEvent(_ name: StaticString, id: SignpostID = .exclusive, value: Int64) {
        lp_record(UInt8(LP_KIND_EVENT), Names.encode(name), id.rawValue, value, UInt8(LP_FLAG_HAS_ARG), categoryIndex)
    }

    // MARK: - Dynamic names (slower path: interned once)

    // Each of these checks that tracing is enabled before interning the name
    // (a lock and a hash) or making an id.

    /// Starts an interval whose name is only known at run time. The name is
    /// interned on first use (a lock and a hash); prefer `StaticString`.
    public func beginInterval(dynamicName name: String, id: SignpostID = .exclusive) -> SignpostIntervalState {
        guard lp_tracing_enabled() != 0 else { return SignpostIntervalState(id: id, category: categoryIndex) }
        let id = id == .exclusive ? SignpostID.make() : id
        let cpu = ThreadCPUTime.stamp
        lp_record(UInt8(LP_KIND_BEGIN), Names.intern(name), id.rawValue, cpu.argument, cpu.flags, categoryIndex)
        return SignpostIntervalState(id: id, category: categoryIndex)
    }

    /// Ends an interval started with ``beginInterval(dynamicName:id:)``.
    public func endInterval(dynamicName name: String, _ state: SignpostIntervalState) {
        guard lp_tracing_enabled() != 0 else { return }
        let cpu = ThreadCPUTime.stamp
        lp_record(UInt8(LP_KIND_END), Names.intern(name), state.id.rawValue, cpu.argument, cpu.flags, state.category)
    }

    /// Records a point in time whose name is only known at run time.
    public func emitEvent(dynamicName name: String, id: SignpostID = .exclusive) {
        guard lp_tracing_enabled() != 0 else { return }
        lp_record(UInt8(LP_KIND_EVENT), Names.intern(name), id.rawValue, 0, 0, categoryIndex)
    }
}

// MARK: - Scoped intervals

extension Signposter {
    /// Runs `task` inside an interval named `name`; the interval ends even
    /// when `task` throws.
    @inlinable
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: SignpostID = .exclusive, around task: () throws -> T
    ) rethrows -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try task()
    }

    /// Runs the asynchronous `task` inside an interval named `name`. The end
    /// may be recorded on another thread than the begin; the trace pairs them
    /// by id.
    @inlinable
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: SignpostID = .exclusive,
        isolation: isolated (any Actor)? = #isolation,
        around task: () async throws -> T
    ) async rethrows -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try await task()
    }
}
