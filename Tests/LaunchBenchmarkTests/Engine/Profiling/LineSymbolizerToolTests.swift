import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Finding llvm-symbolizer, running it (here: stand-in scripts that answer,
/// fail, print garbage or hang), and what the Symbolizer makes of each.
struct LineSymbolizerToolTests {
    /// A C program with debug info, its symbols, and scripts standing in
    /// for llvm-symbolizer, in a scratch directory.
    final class Fixture {
        let scratch: ScratchDirectory
        let binary: String
        let table: ELFSymbolTable

        init(debugInfo: Bool = true) throws {
            scratch = try ScratchDirectory()
            binary = try CCompiler.compile(
                """
                #include <stdio.h>
                #include <stdlib.h>
                __attribute__((noinline)) double noinline_caller(long n) { double x = 0; for (long i = 0; i < n; i++) x += i; return x; }
                int main(int argc, char **argv) { printf("%f\\n", noinline_caller(argc > 1 ? atol(argv[1]) : 10)); return 0; }
                """, to: scratch.file("lines"), optimization: "-O2", debugInfo: debugInfo)
            table = try ELFSymbolTable.read(path: binary)
        }

        func address(of name: String) throws -> UInt64 {
            try #require(table.symbols.first { $0.name == name }?.start, "\(name) is not in the symbol table")
        }

        /// A launch whose samples are `stacks` (ELF addresses, leaf first),
        /// the binary loaded at `bias`.
        func trace(_ stacks: [[UInt64]], bias: UInt64) -> Trace {
            let module = TraceModule(path: binary, bias: bias, start: bias, end: bias + 0x10_0000, buildID: table.buildID)
            let samples = stacks.enumerated().map { index, frames in
                TraceSample(
                    timestamp: UInt64(index), threadID: 7, weight: 1, handlerNanoseconds: 0, truncated: false,
                    unwindFailed: false, loaderBusy: false, frames: frames.map { $0 + bias })
            }
            return SampledTrace.make(samples, modules: [module], rate: 1000, timerMode: .threadCPUTime)
        }

        /// An executable shell script standing in for llvm-symbolizer.
        func script(_ name: String, _ body: String) throws -> String {
            let path = scratch.file(name)
            try ExecutableFile.write("#!/bin/sh\n\(body)\n", to: path)
            return path
        }

        /// A sample in noinline_caller called from main, in one launch.
        func oneSample() throws -> [Trace] {
            [trace([[try address(of: "noinline_caller") + 4, try address(of: "main") + 10]], bias: 0x5555_0000_0000)]
        }

        func names(_ profile: SymbolizedProfile) -> [[String]] {
            profile.stacks.map { $0.frames.map { profile.frames[$0].name } }
        }
    }

    // MARK: finding the tool

    @Test func noneTurnsLinesOffAndAPathThatCannotRunIsNamed() throws {
        #expect(SourceLineTool.locate(environment: ["LAUNCHPROF_SYMBOLIZER": "none"]) == .off)
        let missing = SourceLineTool.locate(environment: ["LAUNCHPROF_SYMBOLIZER": "/no/such/llvm-symbolizer"])
        guard case .unusable(let path, let reason) = missing else {
            Issue.record("\(missing)")
            return
        }
        #expect(path == "/no/such/llvm-symbolizer")
        #expect(reason.contains("/no/such/llvm-symbolizer") && reason.contains("does not exist"))
        let fixture = try Fixture(debugInfo: false)
        let plain = fixture.scratch.file("not-executable")
        try "x".write(toFile: plain, atomically: true, encoding: .utf8)
        guard case .unusable(_, let why) = SourceLineTool.locate(environment: ["LAUNCHPROF_SYMBOLIZER": plain]) else {
            Issue.record("a file without execute permission was accepted")
            return
        }
        #expect(why.contains("not executable"))
    }

    @Test func theSearchOrderIsVariablePathVersionedThenBesideSwift() throws {
        let fixture = try Fixture(debugInfo: false)
        let scratch = fixture.scratch
        for directory in ["path", "versioned", "empty", "toolchain/usr/bin", "links"] {
            try FileManager.default.createDirectory(atPath: scratch.file(directory), withIntermediateDirectories: true)
        }
        let named = try fixture.script("my-symbolizer", "exit 0")
        let inPath = try fixture.script("path/llvm-symbolizer", "exit 0")
        _ = try fixture.script("versioned/llvm-symbolizer-9", "exit 0")
        let new = try fixture.script("versioned/llvm-symbolizer-14", "exit 0")
        _ = try fixture.script("versioned/llvm-symbolizer-99.so", "exit 0")
        let toolchain = try fixture.script("toolchain/usr/bin/llvm-symbolizer", "exit 0")
        _ = try fixture.script("toolchain/usr/bin/swift-driver", "exit 0")
        symlink(scratch.file("toolchain/usr/bin/swift-driver"), scratch.file("links/swift"))

        let path = scratch.file("path") + ":" + scratch.file("links")
        #expect(SourceLineTool.locate(environment: ["LAUNCHPROF_SYMBOLIZER": named, "PATH": path]) == .tool(path: named))
        #expect(SourceLineTool.locate(environment: ["LAUNCHPROF_SYMBOLIZER": "llvm-symbolizer", "PATH": path]) == .tool(path: inPath))
        #expect(SourceLineTool.locate(environment: ["PATH": path], versionedDirectory: scratch.file("versioned")) == .tool(path: inPath))
        let noPlain = scratch.file("empty") + ":" + scratch.file("links")
        #expect(SourceLineTool.locate(environment: ["PATH": noPlain], versionedDirectory: scratch.file("versioned")) == .tool(path: new))
        let besideSwift = SourceLineTool.locate(environment: ["PATH": noPlain], versionedDirectory: scratch.file("empty"))
        #expect(besideSwift == .tool(path: URL(fileURLWithPath: toolchain).resolvingSymlinksInPath().path))
        #expect(SourceLineTool.locate(environment: ["PATH": scratch.file("empty")], versionedDirectory: scratch.file("empty")) == .notFound)
    }

    // MARK: running it

    @Test func inputAndOutputFarLargerThanAPipeDoNotStallTheTool() throws {
        let fixture = try Fixture(debugInfo: false)
        // Megabytes of errors before reading any input, then the input echoed back.
        let echo = try fixture.script("echo", "head -c 3000000 /dev/zero | tr '\\0' e >&2\ncat")
        let input = Data((0..<200_000).map { "0x\(String($0, radix: 16))\n" }.joined().utf8)
        let run = try ToolProcess.run(echo, arguments: [], input: input, timeout: .seconds(120))
        #expect(run.end == .exited(0))
        #expect(run.output == input)
        #expect(run.errorOutput.count == 3_000_000)
    }

    @Test func oneRunPerModuleForAllItsAddressesAcrossLaunches() throws {
        let fixture = try Fixture()
        let log = fixture.scratch.file("runs"), input = fixture.scratch.file("input")
        let tool = try fixture.script("count", "echo \"$@\" >> \(log)\ncat > \(input)")
        let caller = try fixture.address(of: "noinline_caller"), main = try fixture.address(of: "main")
        let traces = [
            fixture.trace([[caller + 4, main + 10], [caller + 8, main + 10]], bias: 0x5555_0000_0000),
            fixture.trace([[caller + 4, main + 10]], bias: 0x7777_0000_0000),
        ]
        let profile = try Symbolizer(lineTool: .tool(path: tool)).symbolize(traces, name: "p")
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(runs == ["--obj=\(fixture.binary) --output-style=JSON --inlines --no-demangle"])
        // The ELF addresses (load bias removed), return addresses minus one, each once, in order.
        let asked = try String(contentsOfFile: input, encoding: .utf8)
        #expect(asked == [caller + 4, caller + 8, main + 9].sorted().map { "0x\(String($0, radix: 16))\n" }.joined())
        // No answer for them: ELF names.
        #expect(fixture.names(profile) == [["main", "noinline_caller"], ["main", "noinline_caller"], ["main", "noinline_caller"]])
        #expect(profile.warnings.isEmpty)
    }

    @Test func theDebugInfoNamesFunctionsAddsInlinedCallsAndLinesWithoutSplittingAFunction() throws {
        let fixture = try Fixture()
        let caller = try fixture.address(of: "noinline_caller"), main = try fixture.address(of: "main")
        func hex(_ address: UInt64) -> String { "0x" + String(address, radix: 16) }
        let answer = fixture.scratch.file("answer.json")
        try """
        {"Address":"\(hex(caller + 4))","ModuleName":"m","Symbol":[{"FileName":"/src/lines.c","FunctionName":"_ZN2ns6helperEv","Line":5,"StartFileName":"/src/helper.h","StartLine":3},{"FileName":"/src/lines.c","FunctionName":"noinline_caller","Line":8,"StartFileName":"","StartLine":8}]}
        {"Address":"\(hex(caller + 8))","ModuleName":"m","Symbol":[{"FileName":"/src/lines.c","FunctionName":"_ZN2ns6helperEv","Line":6,"StartFileName":"/src/helper.h","StartLine":3},{"FileName":"/src/lines.c","FunctionName":"noinline_caller","Line":8,"StartFileName":"","StartLine":8}]}
        {"Address":"\(hex(main + 9))","ModuleName":"m","Symbol":[{"FileName":"","FunctionName":"main","Line":0,"StartFileName":"","StartLine":0}]}
        """.write(toFile: answer, atomically: true, encoding: .utf8)
        let tool = try fixture.script("answer", "cat > /dev/null\ncat \(answer)")
        let trace = fixture.trace([[caller + 4, main + 10], [caller + 8, main + 10]], bias: 0x5555_0000_0000)
        let profile = try Symbolizer(lineTool: .tool(path: tool)).symbolize([trace], name: "p")

        #expect(profile.warnings.isEmpty)
        #expect(fixture.names(profile) == [["main", "noinline_caller", "ns::helper()"], ["main", "noinline_caller", "ns::helper()"]])
        #expect(profile.stacks[0].frames == profile.stacks[1].frames, "one frame per function, whatever the line")
        #expect(
            profile.stacks.map(\.location) == [
                SourceLocation(file: "/src/lines.c", line: 5), SourceLocation(file: "/src/lines.c", line: 6),
            ])
        let frames = profile.stacks[0].frames.map { profile.frames[$0] }
        #expect(
            frames == [
                .init(name: "main", module: "lines"),
                .init(name: "noinline_caller", module: "lines", file: "/src/lines.c", line: 8),
                .init(name: "ns::helper()", module: "lines", file: "/src/helper.h", line: 3, inlined: true),
            ])
    }

    @Test func aFailingToolIsAWarningNamingTheModuleAndFramesKeepTheirELFNames() throws {
        let fixture = try Fixture()
        let cases = [
            ("fails", "echo 'first line' >&2\necho boom >&2\nexit 3", "exited with status 3: boom"),
            ("garbage", "cat > /dev/null\necho 'not json'", "gave unreadable output at line 1: 'not json'"),
            ("crashes", "kill -SEGV $$", "was killed by signal 11"),
            (
                "unreadable", #"echo '{"Address":"0x0","Error":{"Message":"not a valid object file"},"ModuleName":"m"}'; exit 1"#,
                "exited with status 1: not a valid object file"
            ),
        ]
        for (name, body, expected) in cases {
            let tool = try fixture.script(name, body)
            let profile = try Symbolizer(lineTool: .tool(path: tool)).symbolize(try fixture.oneSample(), name: "p")
            #expect(profile.warnings == ["llvm-symbolizer ('\(tool)') on '\(fixture.binary)' \(expected): its frames have no source lines"])
            #expect(fixture.names(profile) == [["main", "noinline_caller"]], "\(name)")
            #expect(profile.frames.allSatisfy { $0.file == nil && !$0.inlined })
            #expect(profile.stacks.allSatisfy { $0.location == nil })
        }
    }

    @Test func aToolThatHangsIsStoppedWithEverythingItStarted() throws {
        let fixture = try Fixture()
        let pidFile = fixture.scratch.file("sleeper")
        let tool = try fixture.script("hangs", "sleep 1000 &\necho $! > \(pidFile)\nwait")
        let profile = try Symbolizer(lineTool: .tool(path: tool), lineTimeout: .milliseconds(300))
            .symbolize(try fixture.oneSample(), name: "p")
        #expect(
            profile.warnings == [
                "llvm-symbolizer ('\(tool)') on '\(fixture.binary)' was still running after 0.3 s and was stopped: its frames have no source lines"
            ])
        #expect(fixture.names(profile) == [["main", "noinline_caller"]])
        // The script's own child was killed with it (SIGKILL to the group
        // arrives asynchronously: wait for it to be gone or a zombie).
        let sleeper = try #require(Int32(try fixture.scratch.read("sleeper").trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<1000 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            gone = state == nil || state == "Z"
            if !gone { usleep(10_000) }
        }
        #expect(gone, "sleep \(sleeper) outlived the symbolizer it was started by")
    }

    @Test func modulesWithoutDebugInfoAreNeverGivenToTheTool() throws {
        let fixture = try Fixture(debugInfo: false)
        #expect(!fixture.table.hasLineTable)
        let log = fixture.scratch.file("runs")
        let tool = try fixture.script("fails", "echo run >> \(log)\nexit 1")
        let profile = try Symbolizer(lineTool: .tool(path: tool)).symbolize(try fixture.oneSample(), name: "p")
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(profile.warnings.isEmpty)
        #expect(fixture.names(profile) == [["main", "noinline_caller"]])
        // Nor is a missing tool worth a word there.
        let missing = try Symbolizer(lineTool: .notFound).symbolize(try fixture.oneSample(), name: "p")
        #expect(!missing.lineToolMissing)
        #expect(!ProfileSummary(missing).text.contains("no source lines"))
    }

    @Test func aMissingToolIsSaidOnceWhenDebugInfoWasThere() throws {
        let fixture = try Fixture()
        #expect(fixture.table.hasLineTable)
        let profile = try Symbolizer(lineTool: .notFound).symbolize(try fixture.oneSample(), name: "p")
        #expect(profile.lineToolMissing)
        #expect(profile.warnings.isEmpty)
        #expect(fixture.names(profile) == [["main", "noinline_caller"]])
        let text = ProfileSummary(profile).text
        #expect(
            text.components(separatedBy: "no source lines: llvm-symbolizer not found (install llvm, or set LAUNCHPROF_SYMBOLIZER)").count
                == 2, "\(text)")
        #expect(!text.contains("hottest lines"))

        let off = try Symbolizer(lineTool: .off).symbolize(try fixture.oneSample(), name: "p")
        #expect(!off.lineToolMissing && off.warnings.isEmpty)
        let unusable = try Symbolizer(lineTool: .unusable(path: "/x/llvm", reason: "program '/x/llvm' does not exist"))
            .symbolize(try fixture.oneSample(), name: "p")
        #expect(
            unusable.warnings == [
                "LAUNCHPROF_SYMBOLIZER='/x/llvm' cannot be used (program '/x/llvm' does not exist): no source lines (set it to an llvm-symbolizer, or to none)"
            ])
    }
}
