import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Source lines and inlined frames through the real llvm-symbolizer, on
/// real programs: an optimised C program whose hot loop was inlined, and
/// the Swift sample app's debug build.
@Suite(.serialized)
struct LineSymbolizerProfileTests {
    func profile(_ command: [String], name: String, environment: [String: String] = [:]) throws -> ProfiledRun {
        try ProfiledRun.profile(command, name: name, environment: environment)
    }

    /// The tool the tests rely on (a Swift toolchain ships one).
    func requireTool() throws {
        let tool = SourceLineTool.locate()
        let found = if case .tool = tool { true } else { false }
        try #require(found, "llvm-symbolizer is needed for these tests: \(tool)")
    }

    @Test func anInlinedHotLoopIsAFrameOfItsOwnWithItsFileAndLines() throws {
        try requireTool()
        let binary = try SamplerPrograms.compile(SamplerPrograms.inlined, name: "lines-inline", optimization: "-O2")
        defer { unlink(binary) }
        let profiled = try profile([binary], name: "inline")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }

        let profile = try Symbolizer().symbolize(profiled.trace, name: "inline")
        #expect(profile.warnings.isEmpty, "\(profile.warnings)")
        let inlined = try #require(profile.frames.firstIndex { $0.name == "inlined_hot_work" }, "\(profile.frames)")
        let frame = profile.frames[inlined]
        #expect(frame.inlined)
        #expect(frame.file?.hasSuffix("lines-inline.c") == true, "\(frame)")
        #expect(frame.line == 3)
        // Between its caller and what the caller was called from.
        let caller = try #require(profile.frames.firstIndex { $0.name == "noinline_caller" })
        #expect(!profile.frames[caller].inlined && profile.frames[caller].file == frame.file && profile.frames[caller].line == 8)
        let hot = profile.stacks.filter { $0.frames.last == inlined }
        #expect(!hot.isEmpty && hot.allSatisfy { $0.frames.suffix(2) == [caller, inlined] })
        #expect(profile.frames.contains { $0.name == "main" && $0.file == frame.file })
        // The hottest line is in the inlined function's body.
        let hottest = try #require(ProfileSummary.hottestLines(profile, limit: 1).first)
        #expect(hottest.location.file == frame.file && (3...7).contains(hottest.location.line), "\(hottest)")
        #expect(hottest.frame.name == "inlined_hot_work")

        // What launchprof wrote says the same.
        #expect(profiled.run.standardError.contains("hottest lines (self):"), "\(profiled.run.standardError)")
        #expect(profiled.run.standardError.contains("inlined_hot_work (inlined)"))
        #expect(profiled.foldedText.contains(";main;noinline_caller;inlined_hot_work "), "\(profiled.foldedText)")
        let written = try #require(profiled.speedscopeFrames.first { $0["name"] as? String == "inlined_hot_work" })
        #expect((written["file"] as? String)?.hasSuffix("lines-inline.c") == true && written["line"] as? Int == 3)
        let svg = try String(contentsOfFile: "\(profiled.directory)/inline.svg", encoding: .utf8)
        let module = URL(fileURLWithPath: binary).lastPathComponent
        #expect(svg.contains("inlined_hot_work (inlined) [\(module)] ") && svg.contains("lines-inline.c:3 — "))

        // The same launch without the tool: ELF names, no lines, no inlined frame.
        let plain = try Symbolizer(lineTool: .locate(environment: ["LAUNCHPROF_SYMBOLIZER": "none"]))
            .symbolize(profiled.trace, name: "inline")
        #expect(!plain.frames.contains { $0.name == "inlined_hot_work" })
        #expect(plain.frames.allSatisfy { $0.file == nil && $0.line == nil && !$0.inlined })
        #expect(plain.stacks.allSatisfy { $0.location == nil })
        #expect(ProfileSummary.hottest(plain, limit: 1).first?.frame.name == "noinline_caller")
        #expect(plain.frames.contains { $0.name == "main" })
        #expect(plain.warnings.isEmpty && !plain.lineToolMissing)
    }

    @Test func turnedOffLaunchprofWritesNamesWithoutLines() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.inlined, name: "lines-off", optimization: "-O2")
        defer { unlink(binary) }
        let profiled = try profile([binary, "100000000"], name: "off", environment: ["LAUNCHPROF_SYMBOLIZER": "none"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(!profiled.foldedText.contains("inlined_hot_work"), "\(profiled.foldedText)")
        #expect(profiled.foldedText.contains(";main;noinline_caller "))
        #expect(profiled.speedscopeFrames.allSatisfy { $0["line"] == nil })
        let module = URL(fileURLWithPath: binary).lastPathComponent
        #expect(profiled.speedscopeFrames.contains { $0["name"] as? String == "noinline_caller" && $0["file"] as? String == module })
        #expect(!profiled.run.standardError.contains("hottest lines"))
        #expect(!profiled.run.standardError.contains("no source lines"), "turned off is not missing")
    }

    @Test func aSymbolizerPathThatDoesNotExistIsAWarningNotAFailure() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.inlined, name: "lines-bad", optimization: "-O2")
        defer { unlink(binary) }
        let missing = "/nonexistent/bin/llvm-symbolizer"
        let profiled = try profile([binary, "100000000"], name: "bad", environment: ["LAUNCHPROF_SYMBOLIZER": missing])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(
            profiled.run.standardError.contains(
                "warning: LAUNCHPROF_SYMBOLIZER='\(missing)' cannot be used (program '\(missing)' does not exist)"),
            "\(profiled.run.standardError)")
        #expect(profiled.foldedText.contains(";main;noinline_caller "), "\(profiled.foldedText)")
    }

    @Test func theSwiftSampleAppsHotFunctionIsInHotspotSwift() throws {
        try requireTool()
        let profiled = try profile([try Products.path("lp-sample-app"), "--hot-ms", "150"], name: "app")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let profile = try Symbolizer().symbolize(profiled.trace, name: "app")
        let hotspot = try #require(profile.frames.first { $0.name.hasPrefix("SampleApp.computeLaunchHotspot(") }, "\(profile.frames)")
        #expect(hotspot.file?.hasSuffix("/Sources/Samples/SampleApp/Hotspot.swift") == true, "\(hotspot)")
        #expect((hotspot.line ?? 0) > 0)
        #expect(profile.stacks.contains { $0.location?.file == hotspot.file })
        let written = try #require(profiled.speedscopeFrames.first { ($0["name"] as? String)?.contains("computeLaunchHotspot") == true })
        #expect((written["file"] as? String)?.hasSuffix("Hotspot.swift") == true)
    }
}
