import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ReportTextTests {
    @Test func humanUnitsUseThreeSignificantDigits() {
        #expect(HumanUnits.duration(999) == "999 ns")
        #expect(HumanUnits.duration(1_234) == "1.23 µs")
        #expect(HumanUnits.duration(14_230_000) == "14.2 ms")
        #expect(HumanUnits.duration(123_400_000) == "123 ms")
        #expect(HumanUnits.duration(999_700) == "1.00 ms")  // not "1000 µs"
        #expect(HumanUnits.duration(1_230_000_000) == "1.23 s")
        #expect(HumanUnits.duration(0) == "0 ns")
        #expect(HumanUnits.duration(310_000, in: .ms) == "0.310 ms")
        #expect(HumanUnits.bytes(512) == "512 B")
        #expect(HumanUnits.bytes(1536) == "1.50 KiB")
        #expect(HumanUnits.bytes(12_900_000) == "12.3 MiB")
        #expect(HumanUnits.bytes(Double(8 << 30)) == "8.00 GiB")
        #expect(HumanUnits.count(3) == "3" && HumanUnits.count(2.5) == "2.5")
        #expect(HumanUnits.percent(0.634) == "63%" && HumanUnits.percent(0.004) == "0.4%")
    }

    @Test("a level short of 100% is never shown as 100.0%: a gate's late looks spend little error")
    func levelsShortOfAHundredKeepTheirDigits() {
        #expect(HumanUnits.level(0.99) == "99.0" && HumanUnits.level(0.9912) == "99.1")
        #expect(HumanUnits.level(0.99962) == "99.96" && HumanUnits.level(0.999996) == "99.9996")
        #expect(HumanUnits.level(1 - 1e-12) == "99.999999")
        #expect(HumanUnits.level(1) == "100.0")
    }

    @Test func terminalTableShowsTheNumbersWithUnitsAndNoColourCodes() throws {
        let text = try TerminalReport(colour: false).export(ReportFixtures.document())
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("Warm launch"))
        #expect(text.contains("hello-c"))
        #expect(text.contains("1.00 ms ± 100 µs"))  // median ± MAD
        #expect(text.contains("14.2 ms ± 100 µs"))
        #expect(text.contains("800 µs … 1.20 ms"))  // min … max
        #expect(text.contains("1.50 ms") && text.contains("800 µs"))  // user and system CPU
        #expect(text.contains("12.3 MiB"))
        #expect(text.contains("reference"))
        #expect(text.contains("× ± ") && text.contains("slower than hello-c"))
        #expect(text.contains("├ process entry") && text.contains("├ main") && text.contains("└ config loaded"))
        #expect(text.contains("Warnings"))
        #expect(text.contains("sample-app (warm): 1 of 20 runs are outliers in time to ready"))
    }

    @Test func colourOnlyWhenAsked() throws {
        let text = try TerminalReport(colour: true).export(ReportFixtures.document())
        #expect(text.contains("\u{1B}[33m"))  // warnings in yellow
        #expect(text.contains("\u{1B}[0m"))
    }

    @Test func colourIsNotWantedOnAPipe() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(!ANSIStyle.wanted(descriptor: fds[1], environment: [:]))
        #expect(ANSIStyle(enabled: false).yellow("x") == "x")
    }

    @Test func noRelativeColumnWithoutAReference() throws {
        let text = try TerminalReport(colour: false).export(ReportFixtures.document(reference: nil))
        #expect(!text.contains("Relative") && !text.contains("slower than"))
    }

    @Test func relativeColumnSaysHowMuchSlower() throws {
        let rows = ReportRow.rowsByMode(ReportFixtures.document())
        let app = try #require(rows.first?.rows.last)
        let comparison = try #require(app.comparison)
        #expect(abs(comparison.ratio - 14.2) < 0.01)
        #expect(comparison.low <= comparison.ratio && comparison.ratio <= comparison.high)
        #expect(rows.first?.rows.first?.isReference == true)
    }

    @Test func markdownIsAGitHubTableWithMilestonesAndResources() throws {
        let text = try MarkdownExporter().export(ReportFixtures.document())
        #expect(!text.contains("\u{1B}"))
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("| Target | Mode | Time to ready") })
        let columns = header.split(separator: "|").count
        #expect(lines.contains { $0.hasPrefix("| :--- | :--- | ---: |") && $0.split(separator: "|").count == columns })
        let app = try #require(lines.first { $0.hasPrefix("| sample-app | warm | 14.2 ms | 100 µs |") })
        #expect(app.contains("1.50 ms") && app.contains("12.3 MiB") && app.contains("| 3 |") && app.contains("| 20 |"))
        #expect(app.contains("slower than hello-c"))
        #expect(lines.contains { $0.hasPrefix("| hello-c | warm | 1.00 ms |") && $0.hasSuffix("| reference |") })
        #expect(lines.contains { $0.hasPrefix("| sample-app | warm | config loaded | 7.10 ms |") })
        #expect(text.contains("### Warnings"))
        #expect(text.contains("Measured on bench-1 (Test CPU @ 3.0GHz, 2 CPUs, 8.00 GiB, Linux 6.8.0 x86_64)"))
    }

    @Test func progressLineRewritesOneLineOnlyOnATerminal() {
        let status = ProgressLine.Status(label: "sample-app (warm)", run: 12, total: 30, median: 14_200_000, remaining: .seconds(3))
        #expect(ProgressLine.text(status) == "sample-app (warm)  run 12/30  median 14.2 ms  ETA 3 s")
        #expect(ProgressLine.text(.init(label: "x", run: 4)) == "x  run 4")
        #expect(ProgressLine.eta(.seconds(125)) == "2 min 5 s")
        // A pipe is not a terminal: the default line is disabled and writes nothing.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let line = ProgressLine(descriptor: fds[1])
        #expect(!line.isEnabled)
        line.update(status)
        line.clear()
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(fds[0], &buffer, buffer.count) == 0)  // end of file, no bytes
    }

    @Test func enabledProgressLineUsesCarriageReturnAndClearLine() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let line = ProgressLine(descriptor: fds[1], enabled: true)
        line.update(.init(label: "a", run: 1, total: 2))
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "\r\u{1B}[2Ka  run 1/2")
    }
}
