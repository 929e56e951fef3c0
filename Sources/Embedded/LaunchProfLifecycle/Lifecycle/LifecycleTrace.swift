import CLaunchProfLifecycle
import CLaunchProfSupport
import LaunchProf

/// Lifecycle moments in the trace, under the `launchprof/lifecycle`
/// category: an event per state entered, intervals for launching (process
/// entry to active or background), suspend, suspended, resume, reload and
/// terminate, so a trace shows time to active and time to resume.
enum LifecycleTrace {
    static let category: UInt16 = Registry.shared.category(subsystem: "launchprof", category: "lifecycle")

    /// An interval with explicit ends (the begin may be a signal's arrival).
    static func interval(_ name: StaticString, from start: UInt64, to end: UInt64, value: Int64? = nil) {
        let id = lp_make_signpost_id()
        let encoded = Names.encode(name)
        lp_record_at(start, UInt8(LP_KIND_BEGIN), encoded, id, 0, 0, category)
        lp_record_at(
            max(start, end), UInt8(LP_KIND_END), encoded, id, value ?? 0, value == nil ? 0 : UInt8(LP_FLAG_HAS_ARG),
            category)
    }

    static func event(_ name: StaticString, at time: UInt64, value: Int64? = nil) {
        lp_record_at(
            time, UInt8(LP_KIND_EVENT), Names.encode(name), 0, value ?? 0, value == nil ? 0 : UInt8(LP_FLAG_HAS_ARG),
            category)
    }

    static func entered(_ state: LifecycleState, at time: UInt64) {
        event(name(of: state), at: time)
    }

    private static func name(of state: LifecycleState) -> StaticString {
        switch state {
        case .launching: "state: launching"
        case .active: "state: active"
        case .inactive: "state: inactive"
        case .background: "state: background"
        case .suspended: "state: suspended"
        case .terminating: "state: terminating"
        }
    }
}
