import Foundation
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// llvm-symbolizer's JSON output (`--output-style=JSON --inlines
/// --no-demangle`), as LLVM 14 and 21 print it, read into source frames.
struct LineSymbolizerOutputTests {
    func parse(_ lines: String...) throws -> [UInt64: [SourceFrame]] {
        try SourceLineOutput.parse(Data(lines.joined(separator: "\n").utf8))
    }

    @Test func anInlinedCallIsTheFirstFrameAndItsCallerFollows() throws {
        let frames = try parse(
            #"{"Address":"0x1191","ModuleName":"inl","Symbol":[{"Column":28,"Discriminator":0,"FileName":"/tmp/inl.c","FunctionName":"hot_inner","Line":4,"StartAddress":"","StartFileName":"/tmp/inl.c","StartLine":2},{"Column":62,"Discriminator":0,"FileName":"/tmp/inl.c","FunctionName":"outer_work","Line":7,"StartAddress":"0x1170","StartFileName":"","StartLine":7}]}"#,
            #"{"Address":"0x11a2","ModuleName":"inl","Symbol":[{"Column":75,"Discriminator":0,"FileName":"/tmp/inl.c","FunctionName":"outer_work","Line":7,"StartAddress":"0x1170","StartFileName":"","StartLine":7}]}"#
        )
        #expect(frames.count == 2)
        let inlined = try #require(frames[0x1191])
        #expect(
            inlined == [
                SourceFrame(function: "hot_inner", file: "/tmp/inl.c", line: 4, startFile: "/tmp/inl.c", startLine: 2),
                SourceFrame(function: "outer_work", file: "/tmp/inl.c", line: 7, startFile: "", startLine: 7),
            ])
        #expect(inlined[0].location == SourceLocation(file: "/tmp/inl.c", line: 4))
        // GCC's out-of-line function has no declaration file: the executed line's stands in.
        #expect(inlined[1].declarationFile == "/tmp/inl.c")
        #expect(frames[0x11a2]?.map(\.function) == ["outer_work"])
    }

    @Test func anAddressWithoutDebugInfoHasOnlyItsSymbolOrNothing() throws {
        let frames = try parse(
            #"{"Address":"0x1000","ModuleName":"inl","Symbol":[{"Column":0,"Discriminator":0,"FileName":"","FunctionName":"_init","Line":0,"StartAddress":"0x1000","StartFileName":"","StartLine":0}]}"#,
            #"{"Address":"0x5000","ModuleName":"inl","Symbol":[{"Column":0,"Discriminator":0,"FileName":"","FunctionName":"","Line":0,"StartAddress":"","StartFileName":"","StartLine":0}]}"#,
            #"{"Address":"0x6000","ModuleName":"inl","Symbol":[]}"#,
            "")
        #expect(frames[0x1000]?.first?.function == "_init")
        #expect(frames[0x1000]?.first?.hasDebugInfo == false)
        #expect(frames[0x1000]?.first?.location == nil)
        #expect(frames[0x5000]?.first?.hasDebugInfo == false)
        #expect(frames[0x6000] == [])
    }

    @Test func oddCharactersInNamesAndFilesSurvive() throws {
        let frames = try parse(
            #"{"Address":"0xABC","ModuleName":"m","Symbol":[{"FileName":"/src/dir with space/\u00e9t\u00e9 \"q\".cpp","FunctionName":"operator\"\" _x<a;b>(char const*) \\ 🔥","Line":12,"StartFileName":"","StartLine":10}]}"#
        )
        let frame = try #require(frames[0xabc]?.first)
        #expect(frame.function == #"operator"" _x<a;b>(char const*) \ 🔥"#)
        #expect(frame.file == #"/src/dir with space/été "q".cpp"#)
        #expect(frame.location == SourceLocation(file: #"/src/dir with space/été "q".cpp"#, line: 12))
    }

    @Test func swiftGeneratedCodeHasNoFileNorLine() throws {
        let frames = try parse(
            #"{"Address":"0x29e10","ModuleName":"app","Symbol":[{"Column":0,"Discriminator":0,"FileName":"/<compiler-generated>","FunctionName":"$s3App1fyyFTA","Line":0,"StartAddress":"0x29e10","StartFileName":"","StartLine":0}]}"#,
            #"{"Address":"0x2db56","ModuleName":"app","Symbol":[{"Column":0,"Discriminator":0,"FileName":"/src/Tracker.swift","FunctionName":"$s3App1gyyF","Line":0,"StartAddress":"0x2db30","StartFileName":"/src/Tracker.swift","StartLine":112}]}"#
        )
        let generated = try #require(frames[0x29e10]?.first)
        #expect(generated.hasDebugInfo)
        #expect(generated.declarationFile == nil)
        #expect(generated.location == nil)
        let lineZero = try #require(frames[0x2db56]?.first)
        #expect(lineZero.declarationFile == "/src/Tracker.swift")
        #expect(lineZero.location == nil)
    }

    @Test func anErrorTheToolReportsIsItsMessage() {
        #expect(throws: SourceLineOutput.Failure.reported("No such file or directory")) {
            try parse(
                #"{"Address":"0x1191","Error":{"Message":"No such file or directory"},"ModuleName":"/nonexist"}"#,
                #"{"Address":"0x1170","ModuleName":"/nonexist","Symbol":[]}"#)
        }
    }

    @Test func outputThatIsNotTheExpectedJSONNamesItsLine() {
        #expect(throws: SourceLineOutput.Failure.unreadable(line: 2, text: "Segmentation fault")) {
            try parse(#"{"Address":"0x1","ModuleName":"m","Symbol":[]}"#, "Segmentation fault")
        }
        #expect(throws: SourceLineOutput.Failure.unreadable(line: 1, text: #"{"ModuleName":"m","Symbol":[]}"#)) {
            try parse(#"{"ModuleName":"m","Symbol":[]}"#)
        }
        #expect(throws: SourceLineOutput.Failure.unreadable(line: 1, text: #"{"Address":"12","Symbol":[]}"#)) {
            try parse(#"{"Address":"12","Symbol":[]}"#)
        }
        let message = SourceLineOutput.Failure.unreadable(line: 3, text: String(repeating: "x", count: 500)).description
        #expect(message.hasPrefix("unreadable output at line 3: 'xxx") && message.count < 200)
    }
}
