import LaunchProfFormat

/// What an event record marks.
package enum TraceEventKind: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The beginning of a signpost interval.
    case intervalBegin
    /// The end of a signpost interval.
    case intervalEnd
    /// A single signpost event.
    case event
    /// A launch milestone.
    case milestone
    /// Launch complete.
    case launchComplete

    /// The kind of an event record's kind byte (`LP_KIND_*` in
    /// launchprof_format.h), or nil for a byte this version does not know.
    package init?(code: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }

    /// The kind byte an event record of this kind holds.
    package var code: UInt8 {
        switch self {
        case .intervalBegin: UInt8(LP_KIND_BEGIN)
        case .intervalEnd: UInt8(LP_KIND_END)
        case .event: UInt8(LP_KIND_EVENT)
        case .milestone: UInt8(LP_KIND_MILESTONE)
        case .launchComplete: UInt8(LP_KIND_LAUNCH_COMPLETE)
        }
    }

    package var description: String {
        switch self {
        case .intervalBegin: "begin"
        case .intervalEnd: "end"
        case .event: "event"
        case .milestone: "milestone"
        case .launchComplete: "launch complete"
        }
    }
}
