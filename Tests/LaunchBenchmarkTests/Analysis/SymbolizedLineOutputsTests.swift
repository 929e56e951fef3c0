import Foundation
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// What the writers make of source files, lines and inlined frames: the
/// speedscope `file`/`line`, the flame graph's hover titles, the summary's
/// hottest lines; folded stacks stay names.
struct SymbolizedLineOutputsTests {
    /// main → work → mix (inlined into work), and memcpy without debug
    /// info; the leaf lines: mix.c:12 ×5, mix.c:13 ×3, work.c:30 ×1, none ×1.
    static func profile() -> SymbolizedProfile {
        let frames: [SymbolizedProfile.Frame] = [
            .init(name: "main", module: "app", file: "/src/main.c", line: 1),
            .init(name: "work", module: "app", file: "/src/work.c", line: 20),
            .init(name: "mix", module: "app", file: "/src/mix.c", line: 10, inlined: true),
            .init(name: "memcpy", module: "libc.so.6"),
        ]
        func stack(_ frames: [Int], _ file: String?, _ line: Int, weight: UInt32 = 1) -> SymbolizedProfile.Stack {
            .init(threadID: 1, timestamp: 0, weight: weight, frames: frames, location: file.map { SourceLocation(file: $0, line: line) })
        }
        return make(
            frames,
            [
                stack([0, 1, 2], "/src/mix.c", 12, weight: 5), stack([0, 1, 2], "/src/mix.c", 13, weight: 3),
                stack([0, 1], "/src/work.c", 30), stack([0, 1, 3], nil, 0),
            ])
    }

    /// The same samples symbolized without debug info.
    static func plainProfile() -> SymbolizedProfile {
        make(
            [.init(name: "main", module: "app"), .init(name: "work", module: "app"), .init(name: "memcpy", module: "libc.so.6")],
            [
                .init(threadID: 1, timestamp: 0, weight: 9, frames: [0, 1]),
                .init(threadID: 1, timestamp: 0, weight: 1, frames: [0, 1, 2]),
            ])
    }

    static func make(_ frames: [SymbolizedProfile.Frame], _ stacks: [SymbolizedProfile.Stack]) -> SymbolizedProfile {
        let sampling = TraceSampling(
            rate: 1000, maxDepth: 64, timerMode: .threadCPUTime, mainThreadOnly: false, loaderUnguarded: false,
            threadsHooked: true, startNanoseconds: 0, stopNanoseconds: 0, lost: 0, failed: 0, threadNames: [:],
            samples: [], modules: [])
        return SymbolizedProfile(
            frames: frames, stacks: stacks, threadNames: [:], sampling: sampling, runStarts: [0], warnings: [], name: "app")
    }

    @Test func speedscopeFramesCarryTheSourceFileAndLineElseTheModule() throws {
        let json = SpeedscopeExporter.json(of: Self.profile())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let frames = try #require((document["shared"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames[2]["name"] as? String == "mix" && frames[2]["file"] as? String == "/src/mix.c" && frames[2]["line"] as? Int == 10)
        #expect(frames[1]["file"] as? String == "/src/work.c" && frames[1]["line"] as? Int == 20)
        #expect(frames[3]["file"] as? String == "libc.so.6" && frames[3]["line"] == nil)
    }

    @Test func theFlameGraphTitleTellsFileLineAndInlined() {
        let svg = FlameGraphSVG.svg(of: Self.profile(), title: "t")
        #expect(svg.contains("<title>mix (inlined) [app] /src/mix.c:10 — 8 samples, 80%</title>"), "\(svg)")
        #expect(svg.contains("<title>work [app] /src/work.c:20 — 10 samples, 100%</title>"))
        #expect(svg.contains("<title>memcpy [libc.so.6] — 1 samples, 10%</title>"))
    }

    @Test func theSummaryListsTheHottestLinesWithTheirFunctions() {
        let text = ProfileSummary(Self.profile()).text
        #expect(
            text.contains(
                """
                hottest functions (self):
                   80.0%  mix (inlined)  [app]
                   10.0%  memcpy  [libc.so.6]
                   10.0%  work  [app]
                hottest lines (self):
                   50.0%  /src/mix.c:12  mix
                   30.0%  /src/mix.c:13  mix
                   10.0%  /src/work.c:30  work
                """), "\(text)")
        #expect(!text.contains("no source lines"))
    }

    @Test func atMostFiveLinesHeaviestFirst() {
        var profile = Self.profile()
        profile.stacks = (1...8).map {
            .init(threadID: 1, timestamp: 0, weight: UInt32($0), frames: [0, 1], location: SourceLocation(file: "/src/work.c", line: $0))
        }
        #expect(ProfileSummary.hottestLines(profile, limit: 5).map(\.location.line) == [8, 7, 6, 5, 4])
    }

    @Test func withoutLinesTheSummaryHasNoLineSectionAndFoldedStacksAreNames() {
        let plain = Self.plainProfile()
        #expect(!ProfileSummary(plain).text.contains("hottest lines"))
        #expect(ProfileSummary.hottestLines(plain, limit: 5).isEmpty)
        #expect(FoldedStacks.text(of: Self.profile()) == "main;work 1\nmain;work;memcpy 1\nmain;work;mix 8\n")
        #expect(FoldedStacks.text(of: plain) == "main;work 9\nmain;work;memcpy 1\n")
    }
}
