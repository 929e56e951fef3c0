import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// What cold launches read and which process trees they started, as the
/// terminal and the HTML report say it, from the runs alone.
@Suite("Launch facts: bytes read and process trees")
struct LaunchFactsTests {
    /// Three cold runs: libswiftCore 600/500/700 pages read, the app 100 pages
    /// every time; libc left cached by launchprof itself.
    static func coldResult() -> BenchmarkResult {
        let runs = [600, 500, 700].enumerated().map { index, corePages in
            var run = ReportFixtures.runs(ms: 20, count: 1)[0]
            run.index = index
            run.residency = ResidencyReport(
                files: [
                    .init(path: "/opt/swift/lib/libswiftCore.so", residentPages: 0, totalPages: 1000, residentPagesAfter: corePages),
                    .init(path: "/srv/app", residentPages: 10, totalPages: 200, residentPagesAfter: 110),
                    .init(
                        path: "/lib/libc.so.6", residentPages: 400, totalPages: 450, note: "the C or C++ runtime",
                        residentPagesAfter: 400, expected: true),
                ], pageSize: 4096)
            run.processCount = 3
            run.process = ResourceUsage(maxRSSBytes: 5 << 20)
            run.maxRSSBytes = 90 << 20
            run.largestProcess = LargestProcess(pid: 4242, name: "worker\u{1B}[2J", maxRSSBytes: 90 << 20)
            return run
        }
        return BenchmarkResult(
            target: LaunchTarget(name: "app", arguments: ["/srv/app"]), mode: .cold, runs: runs)
    }

    @Test("bytes read per launch are medians per file, largest first; files launchprof maps are expected, not read")
    func bytesRead() {
        let facts = LaunchFacts(Self.coldResult())
        #expect(facts.bytesRead == UInt64(700 * 4096))  // median of 700, 600, 800 pages in all
        #expect(facts.filesRead.map(\.path) == ["/opt/swift/lib/libswiftCore.so", "/srv/app"])
        #expect(facts.filesRead.first?.bytes == UInt64(600 * 4096))
        #expect(facts.expectedResident == ["/lib/libc.so.6"])
        #expect(facts.readSentence()?.hasPrefix("a cold launch read 2.73 MiB from disk (median): libswiftCore.so 2.34 MiB") == true)
        #expect(facts.processes == 3)
        #expect(facts.largest?.pid == 4242)
    }

    @Test("the terminal names files and processes with control characters escaped, and groups the expected files once")
    func terminal() throws {
        var document = ReportFixtures.document()
        document.results.append(Self.coldResult())
        let text = try TerminalReport(colour: false).export(document)
        #expect(text.contains("app (cold): a cold launch read"))
        #expect(text.contains("worker\\e[2J"))
        #expect(!text.contains("\u{1B}[2J"))
        #expect(text.contains("cold runs leave cached what launchprof itself maps, as any running system does: libc.so.6"))
    }

    @Test("the same warning on several results is printed once, naming each")
    func groupedWarnings() throws {
        var document = ReportFixtures.document()
        for index in document.results.indices { document.results[index].warnings = [ResultWarning(.runNote, "the same caveat")] }
        let text = try TerminalReport(colour: false).export(document)
        #expect(text.components(separatedBy: "the same caveat").count == 2)
        #expect(text.contains("hello-c (warm), sample-app (warm): the same caveat"))
    }

    @Test("the HTML report lists every file a cold launch read, and stays well-formed with hostile names")
    func html() throws {
        var document = ReportFixtures.document()
        document.results.append(Self.coldResult())
        let page = HTMLReport(document: document).html()
        let inspection = MarkupInspection.parse(page)
        #expect(inspection.error == nil)
        #expect(page.contains("a cold launch read 2.73 MiB from disk (median per launch), from 2 files"))
        #expect(page.contains("<code>/opt/swift/lib/libswiftCore.so</code>"))
        #expect(page.contains("started 3 processes"))
    }
}
