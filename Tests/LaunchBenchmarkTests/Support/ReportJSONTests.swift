import Foundation
import LaunchProfFiles
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

@Suite struct ReportJSONTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lp-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func roundTripThroughAFileIsLossless() throws {
        let document = ReportFixtures.document()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/results.json"
        try JSONExporter().write(document, to: path)
        #expect(try ResultsDocument.load(from: path) == document)
        // Nothing but the file itself is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["results.json"])
    }

    @Test func jsonHasSortedKeysRawRunsSummariesAndWarnings() throws {
        let text = try JSONExporter().export(ReportFixtures.document())
        #expect(text.contains("\"version\" : 1"))
        #expect(text.contains("\"wallToReady\" : 60000000"))  // a raw run value
        #expect(text.contains("\"wall_to_ready\" : {"))  // a summary
        #expect(text.contains("outliers in time to ready"))
        let commandLine = try #require(text.range(of: "\"commandLine\""))
        let date = try #require(text.range(of: "\"date\""))
        #expect(commandLine.lowerBound < date.lowerBound)  // sorted keys
    }

    @Test func unknownVersionIsRejectedNamingTheFile() throws {
        var text = try JSONExporter().export(ReportFixtures.document())
        text = text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 9")
        #expect(throws: ResultsFileError.unsupportedVersion(path: "x.json", version: 9)) {
            try ResultsDocument.decode(Data(text.utf8), path: "x.json")
        }
        #expect(
            ResultsFileError.unsupportedVersion(path: "x.json", version: 9).description
                == "results 'x.json' has schema version 9; this launchprof reads version 1")
    }

    @Test func malformedFilesGetClearErrors() throws {
        func error(_ text: String) -> String {
            do {
                _ = try ResultsDocument.decode(Data(text.utf8), path: "bad.json")
                return "no error"
            } catch { return error.description }
        }
        #expect(error("{ not json").hasPrefix("results 'bad.json' is not valid JSON"))
        #expect(error("[1, 2]") == "results 'bad.json' has no schema \"version\" field; it was not written by launchprof")
        #expect(error(#"{"version": "one"}"#) == "results 'bad.json' is malformed: \"version\" is not an integer")
        #expect(error(#"{"version": 1, "date": "x"}"#).hasPrefix("results 'bad.json' is malformed: missing key"))
        var document = try JSONExporter().export(ReportFixtures.document())
        document = document.replacingOccurrences(of: "\"cpuCount\" : 2", with: "\"cpuCount\" : \"two\"")
        #expect(error(document).contains("at machine.cpuCount"))
        #expect(throws: ResultsFileError.self) { try ResultsDocument.load(from: "/nonexistent/launchprof.json") }
    }

    @Test func atomicWriteReplacesWholeFilesAndNamesThePathOnFailure() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.txt"
        try AtomicFile.write("first", to: path)
        try AtomicFile.write("second", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        do {
            try AtomicFile.write("x", to: directory + "/missing/out.txt")
            Issue.record("writing into a missing directory succeeded")
        } catch {
            #expect(error.description.contains("'\(directory)/missing/out.txt'"))
            #expect(error.description.contains("its directory '\(directory)/missing' does not exist"))
        }
    }

    @Test func documentMeasuredNowIsDatedInUTC() {
        let document = ResultsDocument.measuredNow(
            commandLine: ["launchprof", "run"], reference: nil, results: [], date: Date(timeIntervalSince1970: 0))
        #expect(document.date == "1970-01-01T00:00:00Z")
        #expect(document.version == ResultsDocument.currentVersion && document.toolVersion == launchprofVersion)
    }

    @Test func machineDescriptionReadsThisMachine() {
        let machine = MachineDescription.current()
        #expect(!machine.hostname.isEmpty && machine.hostname != "unknown")
        #expect(machine.kernel.hasPrefix("Linux "))
        #expect(machine.cpuCount >= 1)
        #expect(machine.memoryBytes > 64 << 20)
        #expect(!machine.cpuModel.isEmpty)
    }
}
