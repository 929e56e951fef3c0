import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// Cold launches of a Swift program are cold: launchprof maps no Swift
/// library itself, so the runtime it evicts stays evicted, and each cold run
/// says what it read from disk.
@Suite("Cold runs of a Swift program")
struct ColdSwiftTests {
    @Test("launchprof and its spawner map no Swift library (ldd)")
    func cliMapsNoSwiftLibrary() throws {
        for product in ["launchprof", "lp-spawn"] {
            let ldd = try CommandRun.run("/usr/bin/ldd", [try Products.path(product)])
            #expect(!ldd.standardOutput.contains("libswift"), "\(product): \(ldd.standardOutput)")
            #expect(!ldd.standardOutput.contains("libFoundation"), "\(product): \(ldd.standardOutput)")
            #expect(!ldd.standardOutput.contains("icu"), "\(product): \(ldd.standardOutput)")
        }
        // The spawner is static: it maps no shared library at all.
        let spawner = try CommandRun.run("/usr/bin/ldd", [try Products.path("lp-spawn")])
        #expect(spawner.standardOutput.contains("not a dynamic executable") || spawner.standardError.contains("not a dynamic executable"))
    }

    @Test(
        "libswiftCore.so is evicted before each cold run (or the processes keeping it are named, never launchprof), and each run's reads are listed per file"
    )
    func swiftRuntimeIsCold() throws {
        let json = Products.temporaryPath("cold.json")
        defer { unlink(json) }
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "run", "--mode", "cold", "-r", "3", "-w", "0", "--ready", "tracer", "--export-json", json, "--",
                try Products.path("lp-sample-app"),
            ])
        #expect(run.status == 0, "\(run.standardError)")
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let result = try #require((document["results"] as? [[String: Any]])?.first)
        let runs = try #require(result["runs"] as? [[String: Any]])
        #expect(runs.count == 3)
        for measured in runs {
            let residency = try #require(measured["residency"] as? [String: Any])
            let files = try #require(residency["files"] as? [[String: Any]])
            let core = try #require(files.first { ($0["path"] as? String)?.hasSuffix("/libswiftCore.so") == true })
            let resident = core["residentPages"] as? Int ?? -1, total = core["totalPages"] as? Int ?? 0
            let note = core["note"] as? String ?? ""
            // This test process maps libswiftCore itself, so the page cache
            // keeps the pages it touched; the note must then name who maps
            // it, and launchprof must never be among them.
            #expect(Double(resident) <= 0.01 * Double(total) || note.contains("mapped by"), "\(core)")
            #expect(!note.contains("launchprof itself"), "\(note)")
            #expect(core["expected"] == nil)
            // What the launch read: every file's residency after the run.
            #expect(files.allSatisfy { $0["residentPagesAfter"] != nil })
            let read = files.reduce(0) { sum, file in
                sum + max(0, (file["residentPagesAfter"] as? Int ?? 0) - (file["residentPages"] as? Int ?? 0))
            }
            let majorFaults = measured["majorFaults"] as? Int ?? 0
            // Every major fault brought at least one page in; readahead brings more.
            #expect(read >= majorFaults, "read \(read) pages, \(majorFaults) major faults")
            #expect(read > 0)
        }
        #expect(run.standardOutput.contains("a cold launch read"))
        #expect(run.standardOutput.contains("libswiftCore.so"))
    }
}
