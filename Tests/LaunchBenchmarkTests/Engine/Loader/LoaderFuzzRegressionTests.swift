import Foundation
import LaunchEngine
import Testing

/// What the loader-audit fuzz target (Fuzz/LoaderAuditFuzz.swift) found, with
/// the inputs it found them with, and a real launch's channel read whole and
/// in pieces as that target reads every input.
@Suite("Loader audit inputs the fuzzer found")
struct LoaderFuzzRegressionTests {
    /// A launch of /bin/ls as liblaunchprof-audit.so and the loader sent it
    /// (Fuzz/make_seeds.py's CAPTURED_LS): (kernel stamp, datagram).
    static let capturedLs: [LoaderLaunch.Datagram] = [
        (
            1_795_609_637_226_319_861,
            "LPA1\nV 11802557962481 1795609637226083068\nF 3\nO 11802557979927 \nO 11802557980207 /lib64/ld-linux-x86-64.so.2\n"
                + "O 11802557981489 linux-vdso.so.1\nS 11802557983041 libselinux.so.1\n"
                + "O 11802558024453 /lib/x86_64-linux-gnu/libselinux.so.1\nS 11802558025354 libc.so.6\n"
                + "O 11802558061608 /lib/x86_64-linux-gnu/libc.so.6\nS 11802558062590 libpcre2-8.so.0\n"
                + "O 11802558088198 /lib/x86_64-linux-gnu/libpcre2-8.so.0\nC 11802558196319 1795609637226316826\n"
        ),
        (1_795_609_637_226_330_487, "      3980:\t\n      3980:\tcalling init: /lib64/ld-linux-x86-64.so.2\n      3980:\t\n"),
        (1_795_609_637_226_332_099, "      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libc.so.6\n      3980:\t\n"),
        (1_795_609_637_226_337_948, "      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libpcre2-8.so.0\n      3980:\t\n"),
        (1_795_609_637_226_342_244, "      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libselinux.so.1\n      3980:\t\n"),
        (1_795_609_637_226_399_289, "      3980:\t\n      3980:\tinitialize program: /bin/ls\n      3980:\t\n"),
        (1_795_609_637_226_401_483, "LPA1\nP 11802558279974 1795609637226400481\n"),
    ].map { LoaderLaunch.Datagram(bytes: Array($0.1.utf8), stamp: $0.0) }

    /// An input of the fuzz target: datagrams between NUL bytes, each "<stamp> <bytes>".
    static func channel(base64: String) throws -> [LoaderLaunch.Datagram] {
        let bytes = [UInt8](try #require(Data(base64Encoded: base64)))
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { piece in
            let digits = piece.prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty, digits.endIndex < piece.endIndex, piece[digits.endIndex] == 0x20 else {
                return LoaderLaunch.Datagram(bytes: Array(piece), stamp: 0)
            }
            return LoaderLaunch.Datagram(
                bytes: Array(piece[(digits.endIndex + 1)...]), stamp: UInt64(String(decoding: digits, as: UTF8.self)) ?? 0)
        }
    }

    /// The datagrams cut after line feeds into datagrams of at most `lines` lines (the records' with the magic again).
    static func pieces(_ datagrams: [LoaderLaunch.Datagram], lines: Int) -> [LoaderLaunch.Datagram] {
        let magic = Array("LPA1".utf8)
        return datagrams.flatMap { datagram in
            var rows = datagram.bytes.split(separator: 0x0A)
            let isRecords = rows.first.map { $0.elementsEqual(magic) } ?? false
            if isRecords { rows.removeFirst() }
            guard !rows.isEmpty, isRecords || !rows.contains(where: { $0.elementsEqual(magic) }) else { return [datagram] }
            return stride(from: 0, to: rows.count, by: lines).map { start in
                let bytes = rows[start..<min(start + lines, rows.count)].reduce(isRecords ? magic + [0x0A] : []) { $0 + $1 + [0x0A] }
                return LoaderLaunch.Datagram(bytes: bytes, stamp: datagram.stamp)
            }
        }
    }

    static func verdict(_ datagrams: [LoaderLaunch.Datagram]) -> Result<LoaderLaunch, LoaderAuditError> {
        Result { () throws(LoaderAuditError) in try LoaderLaunch.parse(datagrams, source: "fuzz") }
    }

    @Test("a real launch of /bin/ls reads, the same whole and in pieces")
    func aCapturedLaunchReads() throws {
        let launch = try LoaderLaunch.parse(Self.capturedLs, source: "ls")
        #expect(launch.objects.map(\.path).filter { $0.hasPrefix("/lib/") }.count == 3 && launch.objects.count == 6)
        #expect(launch.objects.map(\.map) == [nil, nil, nil, 41412, 36254, 25608])
        #expect(launch.objects.map(\.initialize) == [1192, 1612, 0, 57045, 5849, 4296])
        #expect(launch.relocation == 108_121 && launch.constructors == 83655 && launch.total == 317_493)
        #expect(launch.programInit == 1192 && launch.constructorsSplit)
        for lines in 1...3 { #expect(Self.verdict(Self.pieces(Self.capturedLs, lines: lines)) == .success(launch)) }
    }

    @Test("a CR at a record datagram's end does not join its last line to the line feed of the next piece")
    func aCarriageReturnEndsNoLine() throws {
        // .build-fuzz/crashes/loader-audit-crash-93d492ccea386beaec9a87de6f6c9f81707c4134: split as
        // Characters, "…487    \r" and "…487    \r\n" were different records (a CR and an LF are one Character).
        let input = try Self.channel(
            base64: "MTc5NTYwOTYzNzIyNjMxOTg2MSBMUEExClYgMTE4MDI1NTc5NjI0ODEgMTc5NTYwOTYzNzIyNjA4MzA2OApGIDMKTyAxMTAyNTU3OTgzMDQxIGxpQnNl"
                + "bGludXguc28uMQpPICsxMTguc28uMzcyMjYzMzA0ODcgICAgDQAAAAAAADAJCiAgICAgL2xpYi94ODZfFjQtbGludXgtZ251L2xpYmMuc28uNiAzOTgw"
                + "OgljYWxsaW5nIGluaXQ6IC9saQ==")
        for lines in 1...3 { #expect(Self.verdict(input) == Self.verdict(Self.pieces(input, lines: lines)), "pieces of \(lines)") }
        let crlf = LoaderLaunch.Datagram(bytes: Array("LPA1\r\nV 1 2\r\n".utf8), stamp: 1)
        #expect(Self.verdict([crlf]) == Self.verdict(Self.pieces([crlf], lines: 1)))
    }

    @Test("names are capped in bytes: a launch read is one a results file can hold")
    func namesAreCappedInBytes() throws {
        // .build-fuzz/crashes/loader-audit-crash-aa3e87e8b9d43d4f1cd65592da50935394fe6b4b (10 KiB, so made
        // here as make_seeds.py made its seed): libc's name 400 times "libc-é́.so", 4,800 bytes in
        // 3,600 Characters, was kept whole under a cap of 4,096 Characters, and the results file it
        // went into was refused when read ("longer than 4096 bytes").
        let long = String(repeating: "libc-\u{e9}\u{301}.so", count: 400)
        var datagrams = Self.capturedLs
        for index in datagrams.indices {
            let text = String(decoding: datagrams[index].bytes, as: UTF8.self).replacingOccurrences(of: "libc.so.6\n", with: long + "\n")
            datagrams[index].bytes = Array(text.utf8)
        }
        let launch = try LoaderLaunch.parse(datagrams, source: "long")
        #expect(launch.objects.contains { $0.path.hasPrefix("/lib/x86_64-linux-gnu/libc-") })
        #expect(launch.objects.allSatisfy { $0.path.utf8.count <= LoaderLaunch.maximumName })
        let profile = try #require(LoaderProfile.summarize([launch], mode: .warm, weights: [:]))
        var result = BenchmarkResult(target: LaunchTarget(name: "t", arguments: ["/bin/ls"]), mode: .warm)
        result.loader = profile
        let document = ResultsDocument.measuredNow(commandLine: [], reference: nil, results: [result])
        #expect(try ResultsDocument.decode(document.jsonData(), path: "long.json").results[0].loader == profile)
    }
}
