import Foundation
import Glibc
import LaunchProf
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Which target a `--trace` belongs to, with real trace files written by the
/// embedded library.
@Suite struct ReportTracesTests {
    private let document: ResultsDocument = {
        var document = ReportFixtures.document()
        document.results[1].target.arguments = ["/opt/bin/lp-sample-app", "--words", "10"]
        return document
    }()

    /// A real trace file at `directory/name`.
    private func traceFile(_ name: String, in directory: String) throws -> String {
        let bytes = try TraceTestSupport.recordTrace {
            Signposter(subsystem: TraceTestSupport.uniqueSubsystem("report"), category: "t").emitEvent("mark")
        }
        let path = "\(directory)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = TraceTestSupport.temporaryPath("traces")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test func aFileNamedAfterTheTargetOrItsProgramMatchesIt() throws {
        try withDirectory { directory in
            let byProgram = try traceFile("lp-sample-app.lptrace", in: directory)
            #expect(try ReportTraces.assign([byProgram], to: document).keys.sorted() == ["sample-app"])
            let byName = try traceFile("hello-c.lptrace", in: directory)
            let both = try ReportTraces.assign([byProgram, byName], to: document)
            #expect(both["hello-c"]?.path == byName && both["sample-app"]?.path == byProgram)
        }
    }

    @Test func nameEqualsPathNamesTheTarget() throws {
        try withDirectory { directory in
            let path = try traceFile("other.lptrace", in: directory)
            #expect(try ReportTraces.assign(["hello-c=\(path)"], to: document)["hello-c"]?.path == path)
        }
    }

    @Test func badTraceArgumentsAreExplained() throws {
        try withDirectory { directory in
            let path = try traceFile("unrelated.lptrace", in: directory)
            #expect(throws: ReportTraceError.self) { try ReportTraces.assign([path], to: document) }
            do throws(ReportTraceError) {
                _ = try ReportTraces.assign([path], to: document)
            } catch {
                #expect(error.description.contains("--trace '\(path)': matches no target by file name"))
                #expect(error.description.contains("targets: 'hello-c', 'sample-app'"))
                #expect(error.description.contains("name one with --trace NAME=\(path)"))
            }
            do throws(ReportTraceError) {
                _ = try ReportTraces.assign(["nosuch=\(path)"], to: document)
                Issue.record("an unknown target name was accepted")
            } catch {
                #expect(
                    error.description
                        == "--trace 'nosuch=\(path)': no target is named 'nosuch' in the results (targets: 'hello-c', 'sample-app')")
            }
            do throws(ReportTraceError) {
                _ = try ReportTraces.assign(["hello-c=\(path)", "hello-c=\(path)"], to: document)
                Issue.record("two traces for one target were accepted")
            } catch {
                #expect(error.description.contains("target 'hello-c' has two traces"))
            }
            let garbage = "\(directory)/garbage.lptrace"
            try Data("not a trace".utf8).write(to: URL(fileURLWithPath: garbage))
            do throws(ReportTraceError) {
                _ = try ReportTraces.assign(["hello-c=\(garbage)"], to: document)
                Issue.record("an invalid trace was accepted")
            } catch {
                #expect(error.description.hasPrefix("--trace: "))
                #expect(error.description.contains(garbage))
            }
        }
    }
}
