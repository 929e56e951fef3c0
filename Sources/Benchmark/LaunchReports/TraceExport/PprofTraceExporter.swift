import Foundation
import LaunchAnalysis
import LaunchEngine

/// `launchprof export --format pprof`: a trace's samples symbolized (as
/// `launchprof profile` does) and written as a gzipped pprof profile
/// (`PprofExporter`).
package struct PprofTraceExporter: Sendable {
    /// The `program` label; nil: the trace's file name without `.lptrace`.
    package var program: String?
    /// Finds names, files and lines for the samples' addresses.
    package var symbolizer: Symbolizer

    /// An exporter labelling its samples with `program`.
    package init(program: String? = nil, symbolizer: Symbolizer = Symbolizer()) {
        (self.program, self.symbolizer) = (program, symbolizer)
    }

    /// The profile of `trace`'s samples; `time` is when they were taken.
    /// Fails when the trace has no samples.
    package func export(_ trace: Trace, time: Date = Date()) throws(Symbolizer.Failure) -> [UInt8] {
        let name = program ?? Self.programName(path: trace.path)
        let profile = try symbolizer.symbolize(trace, name: name)
        return PprofExporter.gzipped(profile, traces: [trace], program: name, time: time)
    }

    /// "app" for "dir/app.lptrace".
    static func programName(path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        return file.hasSuffix(".lptrace") ? String(file.dropLast(".lptrace".count)) : file
    }
}
