import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import LaunchSupport
import Testing

/// The loader's time by library on real processes: a library whose
/// constructor works for 20 ms is the top of the table with that time in
/// Init; a program that gains a library has it named by the attribution with
/// its loader time; a static program is refused with a sentence.
@Suite("The dynamic loader's time by library (liblaunchprof-audit.so)", .serialized)
struct LoaderAuditTests {
    /// A constructor that spins for 20 ms of wall time.
    static let slowLibrary = """
        #include <time.h>
        __attribute__((constructor)) static void start(void) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            do clock_gettime(CLOCK_MONOTONIC, &b);
            while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 20000000L);
        }
        int extra_value(void) { return 1; }
        """

    @Test("a library with a slow constructor is the top, its Init measured, warm and cold")
    func slowConstructorIsTop() throws {
        let scratch = try ScratchDirectory()
        let pair = try LibraryPair.build(in: scratch.path, library: Self.slowLibrary)
        let audit = LoaderAudit(library: try LoaderAudit.locateLibrary(), launches: 3, spawner: Spawner())
        for mode in [LaunchMode.warm, .cold] {
            let profile = try audit.profile(LaunchTarget(name: "after", arguments: [ByteString(pair.after)]), mode: mode)
            let top = try #require(profile.libraries.first)
            #expect(top.path.hasSuffix("/libextra.so"), "\(mode): \(profile.libraries.map(\.path))")
            #expect(top.initialize >= 19e6 && top.initialize < 2e9, "\(mode): init \(top.initialize) ns")
            #expect(top.map != nil && profile.constructorsSplit && profile.launches == 3 && profile.mode == mode)
            #expect(profile.libraries.contains { $0.path.hasSuffix("/libc.so.6") && $0.map != nil })
            #expect(profile.constructors >= top.initialize && profile.total >= profile.constructors)
            let lines = LoaderTable.lines(warm: profile, cold: nil)
            #expect(lines.count > 3 && lines[1].hasPrefix("libextra.so"), "\(lines)")
        }
    }

    @Test("a program that gains a library: the attribution names it with its loader time (run --loader on both sides)")
    func attributionNamesTheLibrary() async throws {
        let scratch = try ScratchDirectory()
        let pair = try LibraryPair.build(in: scratch.path, library: Self.slowLibrary)
        var settings = BenchmarkSettings()
        settings.loaderLaunches = 3
        let session = BenchmarkSession(
            targets: [
                LaunchTarget(name: "before", arguments: [ByteString(pair.before)]),
                LaunchTarget(name: "after", arguments: [ByteString(pair.after)]),
            ],
            modes: [.warm], warmup: 1, stopping: .fixed(6), settings: settings)
        let results = try await session.run().document.results
        try #require(results.count == 2 && results.allSatisfy { $0.loader != nil }, "\(results.map { $0.loader == nil })")
        let attribution = try #require(LaunchAttribution.attribute(baseline: results[0], current: results[1]))
        let change = try #require(attribution.loader?.first, "\(attribution.loader ?? [])")
        #expect(change.path.hasSuffix("/libextra.so") && change.before == nil && change.initialize >= 19e6, "\(change)")
        let sentences = attribution.librarySentences
        #expect(sentences.contains { $0.contains("new in the launch: libextra.so") && $0.contains("of the loader's time") }, "\(sentences)")
        #expect(sentences.contains { $0.hasPrefix("the loader's time changed most on: libextra.so +") }, "\(sentences)")
        // Through JSON and back: the field is kept and checked.
        let document = ResultsDocument.measuredNow(commandLine: ["launchprof"], reference: nil, results: results)
        let reread = try ResultsDocument.decode(try document.jsonData(), path: "loader.json")
        #expect(reread.results[1].loader == results[1].loader)
        let html = HTMLReport(document: document).html()
        #expect(html.contains("The dynamic loader, library by library") && html.contains("libextra.so"))
    }

    @Test("the audit library needs only the C library, and defines no la_symbind or la_pltenter")
    func auditLibraryIsMinimal() throws {
        let library = try LoaderAudit.locateLibrary()
        #expect(try ELFImage.read(path: library).needed == ["libc.so.6"])
        let symbols = try CommandRun.run("/usr/bin/nm", ["-D", "--defined-only", library])
        try #require(symbols.status == 0, "\(symbols.standardError)")
        let names = Set(symbols.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(names.isSuperset(of: ["la_version", "la_objsearch", "la_objopen", "la_activity", "la_preinit"]))
        #expect(!names.contains { $0.hasPrefix("la_symbind") || $0.hasPrefix("la_") && $0.contains("plt") }, "\(names)")
    }

    @Test("a static program loads no audit library: a sentence, not a hang or a trap")
    func staticProgramIsRefused() throws {
        let audit = LoaderAudit(library: try LoaderAudit.locateLibrary(), launches: 1, spawner: Spawner())
        let target = LaunchTarget(name: "c", arguments: [ByteString(try Products.path("lp-hello-c"))])
        #expect {
            _ = try audit.profile(target, mode: .warm)
        } throws: { error in
            guard case .noChannel = error as? LoaderAuditError else { return false }
            return "\(error)".contains("statically linked")
        }
    }
}
