import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import LaunchReports
import Testing

/// The Why of a regressed gate on real programs: what grew, as `run
/// --baseline` says it, made side by side after the verdict. Serialized: two
/// gates at once would load each other's sides.
@Suite("The Why of a regressed gate", .serialized)
struct GateWhyTests {
    static func settings(whyRuns: Int = 10) -> GateSettings {
        var settings = GateSettings()
        settings.threshold = 0.05
        settings.maxTime = .seconds(120)
        settings.whyRuns = whyRuns
        return settings
    }

    @Test("the traced sample app's added step: the interval named, its change on CPU, from traced runs of both sides")
    func tracedIntervalOnCPU() throws {
        // A small index and one worker: a short launch, so 40 ms more is
        // decided at the first look even on a busy machine.
        let app = try Products.path("lp-sample-app")
        let gate = GateSession(
            base: LaunchTarget(name: "base", arguments: [app, "--words", "2000", "--workers", "1"], ready: .tracer),
            head: LaunchTarget(name: "head", arguments: [app, "--words", "2000", "--workers", "1", "--extra-ms", "40"], ready: .tracer),
            settings: Self.settings())
        let document = try gate.runSynchronously()
        try #require(document.verdict == .regressed, "\(document.summary)")
        let why = try #require(document.why)
        #expect(why.tracedRuns == 10, "\(why.notes)")
        #expect(document.whyLines == why.lines && !why.lines.isEmpty)
        let attribution = try #require(why.attribution)
        let step = try #require(attribution.contributors.first { $0.name.contains("'extra work'") }, "\(why.lines)")
        // 40 ms of the main thread's own CPU time: on CPU whatever the load.
        #expect((step.onCPUChange ?? 0) > 30e6, "\(step)")
        #expect(attribution.libraries?.isEmpty == true, "the same program: no library added or dropped")
        let text = GateReport.text(document)
        #expect(text.contains("why the head is slower (the gate's runs, 10 traced runs"), "\(text)")
        #expect(text.contains("interval 'extra work'"), "\(text)")
        #expect(GateExports.markdown(document).contains("### Why the head is slower"))
        let annotation = try #require(GateExports.annotations(document).first)
        #expect(annotation.hasPrefix("::error ") && annotation.contains("%0Ahead (warm): interval 'extra work'"), "\(annotation)")
        // Kept through JSON.
        let reread = try JSONDecoder().decode(GateDocument.self, from: try document.json())
        #expect(reread.why == document.why)
    }

    @Test("a C program that gains a library with a 20 ms constructor: the library named with its loader time, no trace")
    func gainedLibrary() throws {
        let scratch = try ScratchDirectory()
        let pair = try LibraryPair.build(in: scratch.path, library: LoaderAuditTests.slowLibrary)
        let gate = GateSession(
            base: LaunchTarget(name: "base", arguments: [pair.before]), head: LaunchTarget(name: "head", arguments: [pair.after]),
            settings: Self.settings())
        let document = try gate.runSynchronously()
        try #require(document.verdict == .regressed, "\(document.summary)")
        let why = try #require(document.why)
        #expect(why.tracedRuns == 0 && why.auditedLaunches == 5)
        #expect(why.notes.contains { $0.contains("do not report to a LaunchProf tracer") }, "\(why.notes)")
        let attribution = try #require(why.attribution)
        let change = try #require(attribution.loader?.first, "\(attribution.loader ?? [])")
        #expect(change.path.hasSuffix("/libextra.so") && change.before == nil && change.initialize >= 19e6, "\(change)")
        #expect(why.lines.contains { $0.contains("new in the launch: libextra.so") }, "\(why.lines)")
    }

    @Test("--why-runs 0 asks no Why; an unchanged verdict has none")
    func noWhy() throws {
        let scratch = try ScratchDirectory()
        let pair = try LibraryPair.build(in: scratch.path, library: LoaderAuditTests.slowLibrary)
        let asked = GateSession(
            base: LaunchTarget(name: "base", arguments: [pair.before]), head: LaunchTarget(name: "head", arguments: [pair.after]),
            settings: Self.settings(whyRuns: 0))
        let regressed = try asked.runSynchronously()
        #expect(regressed.verdict == .regressed && regressed.why == nil, "\(regressed.summary)")
        var settings = Self.settings()
        settings.threshold = 0.5
        let same = GateSession(
            base: LaunchTarget(name: "base", arguments: [pair.before]), head: LaunchTarget(name: "head", arguments: [pair.before]),
            settings: settings)
        let unchanged = try same.runSynchronously()
        #expect(unchanged.verdict != .regressed && unchanged.why == nil, "\(unchanged.summary)")
    }
}
