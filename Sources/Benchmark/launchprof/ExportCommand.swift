import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchProfFiles
import LaunchSupport

/// `launchprof export TRACE --format chrome|otlp|text|pprof [--output FILE]`: converts a
/// trace file written by the embedded library for a viewer or a person, or
/// its samples for a profiler.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert a trace file to Chrome/Perfetto JSON, OTLP/JSON, a text timeline or a pprof profile.",
        discussion: """
            Open the Chrome format in https://ui.perfetto.dev or chrome://tracing. The otlp format is an \
            OpenTelemetry ExportTraceServiceRequest in JSON (a launch span, a span per interval, milestones \
            as events), which an OTLP/HTTP collector takes at /v1/traces. The pprof format is the trace's \
            samples symbolized, as a gzipped profile.proto (go tool pprof, Grafana Pyroscope, Parca). \
            Exits with status 2 when the trace cannot be read or is invalid.
            """
    )

    @Argument(help: "The trace file written by a program using LaunchProf (LAUNCHPROF_TRACE).")
    var trace: String

    @Option(
        help:
            "The output format: chrome (Trace Event JSON for Perfetto), otlp (OpenTelemetry OTLP/JSON), text (a readable timeline) or pprof (the samples, gzipped profile.proto)."
    )
    var format: TraceExportFormat = .chrome

    @Option(
        help:
            "With --format otlp: the service.name of the resource (default: the program's name); with --format pprof: the program label (default: the trace's file name)."
    )
    var serviceName: String?

    @Option(name: .shortAndLong, help: "Write to this file (whole or not at all) instead of standard output.")
    var output: String?

    func validate() throws {
        if serviceName != nil, format != .otlp, format != .pprof {
            throw ValidationError("--service-name applies with --format otlp or pprof")
        }
    }

    func run() throws {
        let parsed: Trace
        do {
            parsed = try TraceReader.read(path: trace)
        } catch {
            throw fail(error.description)
        }
        let bytes: [UInt8]
        if format == .pprof {
            // The samples were taken when the trace was written, not now.
            let written = (try? FileManager.default.attributesOfItem(atPath: trace)[.modificationDate]) as? Date
            do {
                bytes = try PprofTraceExporter(program: serviceName).export(parsed, time: written ?? Date())
            } catch {
                throw fail(error.description)
            }
        } else {
            let exporter: (any TraceExporter)? = format == .otlp ? OTLPTraceExporter(serviceName: serviceName) : format.exporter
            bytes = Array((exporter?.export(parsed) ?? "").utf8)
        }
        guard let output else {
            _ = bytes.withUnsafeBytes { StandardStream.output.write($0) }
            return
        }
        do {
            try AtomicFile.write(bytes, to: output, sync: true)
        } catch {
            throw fail(error.description)
        }
    }

    /// Prints `message` and returns the exit status for bad input.
    private func fail(_ message: String) -> ExitCode {
        Output.note(message, command: "export")
        return ExitCode(LaunchExitStatus.usage)
    }
}

extension TraceExportFormat: ExpressibleByArgument {}
