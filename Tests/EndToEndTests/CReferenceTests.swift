import Foundation
import LaunchProfTestSupport
import Testing

/// The C reference and the preload library are C: no Swift runtime, no
/// libstdc++ in them, so a ratio to hello-c is a ratio to C, and a profiled
/// C or Python program gets nothing loaded but the sampler and libunwind.
@Suite("C products link only C")
struct CReferenceTests {
    /// The NEEDED entries of an ELF file (readelf -d), or nil for a static one.
    private func needed(_ path: String) throws -> [String]? {
        let run = try CommandRun.run("/usr/bin/readelf", ["-d", path])
        try #require(run.status == 0, "readelf -d \(path): \(run.standardError)")
        if run.standardOutput.contains("There is no dynamic section") { return nil }
        return run.standardOutput.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test("lp-hello-c is a static C program: no shared library at all, so no Swift runtime or libstdc++")
    func helloCIsC() throws {
        let hello = try Products.path("lp-hello-c")
        #expect(try needed(hello) == nil)
        let ldd = try CommandRun.run("/usr/bin/ldd", [hello])
        #expect(!(ldd.standardOutput + ldd.standardError).contains("libswift"))
        let run = try CommandRun.run(hello, [])
        #expect(run.status == 0 && run.standardOutput == "hello from C\n")
    }

    @Test("liblaunchprof-preload.so needs only the C library and libunwind")
    func preloadIsC() throws {
        let preload = Products.directory.appendingPathComponent("launchprof_launchprof.resources/liblaunchprof-preload.so").path
        let libraries = try #require(try needed(preload))
        #expect(Set(libraries).isSubset(of: ["libc.so.6", "libunwind.so.8", "libdl.so.2", "libpthread.so.0"]), "\(libraries)")
        #expect(libraries.contains("libc.so.6") && libraries.contains("libunwind.so.8"))
    }

    @Test("lp-hello-c's max RSS, as launchprof measures it, is at most 3 MiB")
    func helloCMemory() throws {
        let json = Products.temporaryPath("hello.json")
        defer { unlink(json) }
        let run = try CommandRun.run(
            try Products.path("launchprof"), ["run", "-r", "5", "-w", "1", "--export-json", json, "--", try Products.path("lp-hello-c")])
        #expect(run.status == 0, "\(run.standardError)")
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let runs = try #require(((document["results"] as? [[String: Any]])?.first?["runs"]) as? [[String: Any]])
        for measured in runs {
            let bytes = try #require(measured["maxRSSBytes"] as? Int)
            #expect(bytes > 0 && bytes <= 3 * 1_048_576, "\(bytes) bytes")
        }
    }
}
