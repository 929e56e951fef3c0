import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchProfFiles
import LaunchSupport

/// `launchprof export TRACE --format chrome|otlp|text [--output FILE]`: converts a
/// trace file written by the embedded library for a viewer or a person.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert a trace file to Chrome/Perfetto JSON, OTLP/JSON or a text timeline.",
        discussion: """
            Open the Chrome format in https://ui.perfetto.dev or chrome://tracing. The otlp format is an \
            OpenTelemetry ExportTraceServiceRequest in JSON (a launch span, a span per interval, milestones \
            as events), which an OTLP/HTTP collector takes at /v1/traces. \
            Exits with status 2 when the trace cannot be read or is invalid.
            """
    )

    @Argument(help: "The trace file written by a program using LaunchProf (LAUNCHPROF_TRACE).")
    var trace: String

    @Option(
        help: "The output format: chrome (Trace Event JSON for Perfetto), otlp (OpenTelemetry OTLP/JSON) or text (a readable timeline).")
    var format: TraceExportFormat = .chrome

    @Option(help: "With --format otlp: the service.name of the resource (default: the program's name).")
    var serviceName: String?

    @Option(name: .shortAndLong, help: "Write to this file (whole or not at all) instead of standard output.")
    var output: String?

    func validate() throws {
        if serviceName != nil, format != .otlp { throw ValidationError("--service-name applies with --format otlp") }
    }

    func run() throws {
        let parsed: Trace
        do {
            parsed = try TraceReader.read(path: trace)
        } catch {
            throw fail(error.description)
        }
        let exporter: any TraceExporter = format == .otlp ? OTLPTraceExporter(serviceName: serviceName) : format.exporter
        let text = exporter.export(parsed)
        guard let output else {
            Output.standardOutput(text)
            return
        }
        do {
            try AtomicFile.write(text, to: output)
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
