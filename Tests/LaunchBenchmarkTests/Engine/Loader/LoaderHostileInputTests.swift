import Foundation
import Glibc
import LaunchBenchmark
import LaunchEngine
import LaunchProfTestSupport
import LaunchSupport
import Testing

/// The audit channel and the results field are hostile input: truncated,
/// garbage or huge data gets an error that names it, never a trap.
@Suite("Hostile loader audit data")
struct LoaderHostileInputTests {
    /// A launch as the audit library writes it: two objects, one constructor.
    static func datagrams(dropping: Set<Character> = [], extra: [String] = []) -> [LoaderLaunch.Datagram] {
        let offset: UInt64 = 1_000_000_000_000
        let records =
            [
                "V 100 \(offset + 100)", "F 3", "O 110 ", "S 120 libx.so", "O 150 /l/libx.so", "C 200 \(offset + 200)",
            ].filter { !dropping.contains($0.first!) } + extra
        let tail = ["P 300 \(offset + 300)"].filter { !dropping.contains($0.first!) }
        return [
            .init(bytes: Array(("LPA1\n" + records.joined(separator: "\n") + "\n").utf8), stamp: offset + 201),
            .init(bytes: Array("   7:\t\n   7:\tcalling init: /l/libx.so\n".utf8), stamp: offset + 210),
            .init(bytes: Array("   7:\tinitialize program: ./p\n".utf8), stamp: offset + 290),
            .init(bytes: Array(("LPA1\n" + tail.joined(separator: "\n") + "\n").utf8), stamp: offset + 301),
        ]
    }

    @Test func aWholeLaunchReads() throws {
        let launch = try LoaderLaunch.parse(Self.datagrams(), source: "test")
        #expect(launch.objects.map(\.path) == ["", "/l/libx.so"])
        #expect(launch.objects[1].map == 30 && launch.objects[1].initialize == 80)
        #expect(launch.relocation == 50 && launch.constructors == 100 && launch.total == 200 && launch.programInit == 10)
    }

    @Test func truncatedLaunchesNameWhatIsMissing() {
        for (dropped, words) in [("P", "program's entry"), ("C", "end of relocation"), ("V", "start")] {
            #expect {
                _ = try LoaderLaunch.parse(Self.datagrams(dropping: [Character(dropped)]), source: "launch 1")
            } throws: { error in
                "\(error)".contains("launch 1") && "\(error)".contains(words)
            }
        }
        #expect(throws: LoaderAuditError.self) { _ = try LoaderLaunch.parse([], source: "nothing") }
    }

    @Test func garbageIsMalformed() {
        let cases: [[LoaderLaunch.Datagram]] = [
            Self.datagrams(extra: ["Q 1 2"]),
            Self.datagrams(extra: ["S notanumber x"]),
            Self.datagrams(extra: ["S 99999999999999999999999 x"]),
            Self.datagrams(extra: ["X overflow"]),
            Self.datagrams(extra: ["S 5 libbackwards.so"]),
            [.init(bytes: Array("  7:\tcalling init: /l/libx.so\n".utf8), stamp: 0)] + Self.datagrams(),
            [.init(bytes: Array("LPA1\n\u{0}\u{1}\u{2}".utf8), stamp: 0)],
            // Loader lines whose stamps go back and forth (a sum that would overflow), a launch of 2^62 ns.
            Self.datagrams() + (0..<1000).map { .init(bytes: Array("calling init: /l/libx.so\n".utf8), stamp: $0 % 2 == 0 ? 1 : 1 << 62) },
            [.init(bytes: Array("LPA1\nV 0 0\nO 1 \nC 2 2\nP 4611686018427387904 4611686018427387904\n".utf8), stamp: 5)],
        ]
        for (index, datagrams) in cases.enumerated() {
            #expect(throws: LoaderAuditError.self, "case \(index)") { _ = try LoaderLaunch.parse(datagrams, source: "garbage") }
        }
    }

    @Test("lines of the loader's that are not constructors (it prints many) are ignored, bytes that are not text too")
    func otherLoaderLinesAreIgnored() throws {
        let noise = LoaderLaunch.Datagram(bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }, stamp: 0)
        #expect(
            try LoaderLaunch.parse([noise] + Self.datagrams(), source: "noise") == LoaderLaunch.parse(Self.datagrams(), source: "clean"))
    }

    @Test func hugeInputIsBounded() {
        let line = "   7:\tsomething\n"
        let huge = LoaderLaunch.Datagram(bytes: Array(String(repeating: line, count: LoaderLaunch.maximumLines + 1).utf8), stamp: 1)
        #expect {
            _ = try LoaderLaunch.parse([huge] + Self.datagrams(), source: "huge")
        } throws: { "\($0)".contains("more than \(LoaderLaunch.maximumLines) lines") }
        let manyObjects = (0...LoaderLaunch.maximumObjects).map { "O \(200 + $0) /l/lib\($0).so" }
        #expect {
            _ = try LoaderLaunch.parse(Self.datagrams(extra: manyObjects), source: "many")
        } throws: { "\($0)".contains("more than \(LoaderLaunch.maximumObjects) objects") }
    }

    @Test("a real socket pair flooded past the limit: an error, not a hang")
    func floodedChannelIsBounded() throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        let reader = FileDescriptor(ends[0]), writer = FileDescriptor(ends[1])
        var size: Int32 = 4 << 20
        setsockopt(writer.rawValue, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        // Datagrams of 64 KiB until the socket is full: more than 16 MiB cannot
        // queue here, so the bytes limit is checked by a datagram count instead.
        let chunk = [UInt8](repeating: 0x41, count: 200)
        var sent = 0
        while sent < 200_000, chunk.withUnsafeBytes({ send(writer.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {
            sent += 1
        }
        let datagrams = try LoaderChannel.read(reader, source: "flood")
        #expect(datagrams.count == sent && sent > 0)
        #expect(throws: LoaderAuditError.self) { _ = try LoaderLaunch.parse(datagrams, source: "flood") }
    }

    @Test func resultsWithABadLoaderFieldAreRefused() throws {
        let profile = LoaderProfile(
            version: 1, mode: .warm, launches: 2, libraries: [.init(path: "/l/libx.so", map: 10, relocate: 5, initialize: 7)],
            mapping: 10, relocation: 5, constructors: 7, programInit: nil, total: 30, constructorsSplit: true, notes: [])
        var result = BenchmarkResult(target: LaunchTarget(name: "t", arguments: ["/bin/true"]), mode: .warm)
        result.loader = profile
        let good = ResultsDocument.measuredNow(commandLine: [], reference: nil, results: [result])
        #expect(try ResultsDocument.decode(good.jsonData(), path: "good.json").results[0].loader == profile)
        func refused(_ edit: (inout LoaderProfile) -> Void, _ words: String) throws {
            var document = good
            edit(&document.results[0].loader!)
            #expect {
                _ = try ResultsDocument.decode(try document.jsonData(), path: "bad.json")
            } throws: { "\($0)".contains("bad.json") && "\($0)".contains(words) }
        }
        try refused({ $0.version = 2 }, "loader.version is 2")
        try refused({ $0.libraries[0].initialize = -1 }, "initialize")
        try refused({ $0.total = 1e300 }, "total")
        try refused({ $0.launches = 0 }, "launches")
        try refused({ $0.libraries[0].path = String(repeating: "x", count: 5000) }, "longer than")
        // A field of the wrong type is a decoding error that names where.
        let text = String(decoding: try good.jsonData(), as: UTF8.self).replacingOccurrences(
            of: "\"launches\" : 2", with: "\"launches\" : \"two\"")
        #expect(text.contains("\"two\""))
        #expect(throws: ResultsFileError.self) { _ = try ResultsDocument.decode(Data(text.utf8), path: "typo.json") }
    }
}
