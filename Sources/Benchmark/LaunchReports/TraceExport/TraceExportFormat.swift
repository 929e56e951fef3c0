import LaunchAnalysis

/// The formats `launchprof export` writes.
package enum TraceExportFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Chrome Trace Event JSON, for Perfetto (ui.perfetto.dev) and chrome://tracing.
    case chrome
    /// A readable timeline, one line per event or interval.
    case text
    /// OTLP/JSON (an ExportTraceServiceRequest) for OpenTelemetry collectors.
    case otlp
    /// The samples as a gzipped pprof profile (`PprofTraceExporter`): binary.
    case pprof

    /// The exporter of a text format; nil for pprof, whose bytes
    /// `PprofTraceExporter` writes.
    package var exporter: (any TraceExporter)? {
        switch self {
        case .chrome: ChromeTraceExporter()
        case .text: TextTimelineExporter()
        case .otlp: OTLPTraceExporter()
        case .pprof: nil
        }
    }

    package var description: String { rawValue }
}
