import LaunchBenchmark
import LaunchProf
import Testing

/// Files that are intact (their checksum matches) but wrong: a writer bug or
/// a hand-made file. Built by editing a real trace and re-checksumming it.
@Suite struct TraceValidationTests {
    private func edited(
        _ original: [UInt8]? = nil, _ edit: (inout TraceFileSurgery) -> Void
    ) throws -> [UInt8] {
        var surgery = TraceFileSurgery(try original ?? TraceTestSupport.smallRealTrace())
        edit(&surgery)
        return surgery.bytes()
    }

    @Test func futureVersionIsRejectedWithItsNumber() throws {
        let bytes = try edited { TraceFileSurgery.write(UInt32(7), into: &$0.header, at: 8) }
        let error = TraceTestSupport.readError(bytes, path: "/tmp/future.lptrace")
        #expect(error == .unsupportedVersion(path: "/tmp/future.lptrace", version: 7, supported: 1))
        #expect(
            error?.description
                == "trace '/tmp/future.lptrace' is format version 7; this launchprof reads version 1 — upgrade launchprof")
    }

    @Test func futureVersionIsReportedEvenWithAnotherLayout() {
        // Only magic and version: a v7 file may look like anything after them.
        let bytes = Array("LPTRACE\0".utf8) + [7, 0, 0, 0]
        #expect(TraceTestSupport.readError(bytes)?.caseName == "unsupportedVersion")
    }

    @Test func unknownEventKindIsRejected() throws {
        let bytes = try edited { $0.setEventField(0, 32, UInt8(9)) }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "unknownEventKind")
        #expect(error?.description.contains("unknown kind 9") == true)
    }

    @Test func eventNameIndexOutOfRangeIsRejected() throws {
        let bytes = try edited { $0.setEventField(1, 24, UInt32(1_000_000)) }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "indexOutOfRange")
        #expect(error?.description.contains("is 1000000, but the table has only") == true)
    }

    @Test func eventCategoryOutOfRangeIsRejected() throws {
        let bytes = try edited { $0.setEventField(0, 34, UInt16(60_000)) }
        #expect(TraceTestSupport.readError(bytes)?.caseName == "indexOutOfRange")
    }

    @Test func invalidUTF8IsRejected() throws {
        var damagedOffset = 0
        let bytes = try edited { surgery in
            let at = surgery.index(of: TraceFileSurgery.strings)
            // The first byte of the first non-empty string.
            var offset = 4
            while TraceFileSurgery.read(UInt32.self, surgery.sections[at].payload, at: offset) == 0 { offset += 4 }
            surgery.sections[at].payload[offset + 4] = 0xFF
            damagedOffset = 96 + 16 + offset + 4
        }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "invalidUTF8")
        #expect(error?.offset == damagedOffset)
    }

    @Test func hugeEventCountIsRejectedWithoutAllocating() throws {
        let bytes = try edited { surgery in
            let at = surgery.index(of: TraceFileSurgery.events)
            TraceFileSurgery.write(UInt64.max, into: &surgery.sections[at].payload, at: 0)
        }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("declares 18446744073709551615 entries") == true)
    }

    @Test func hugeStringCountIsRejectedWithoutAllocating() throws {
        let bytes = try edited { surgery in
            let at = surgery.index(of: TraceFileSurgery.strings)
            TraceFileSurgery.write(UInt32.max, into: &surgery.sections[at].payload, at: 0)
        }
        #expect(TraceTestSupport.readError(bytes)?.caseName == "malformed")
    }

    @Test func stringLongerThanItsSectionIsRejected() throws {
        let bytes = try edited { surgery in
            let at = surgery.index(of: TraceFileSurgery.strings)
            TraceFileSurgery.write(UInt32(1 << 30), into: &surgery.sections[at].payload, at: 4)
        }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("the strings section at byte 96 ends at byte") == true)
    }

    @Test func headerEventCountMustMatchTheSection() throws {
        let bytes = try edited { TraceFileSurgery.write(UInt64(99), into: &$0.header, at: 72) }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("the header counts 99 events but the events section holds 3") == true)
    }

    @Test func eventsOutOfOrderAreRejected() throws {
        let bytes = try edited { $0.setEventField(2, 0, UInt64(1)) }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("events must be sorted by time") == true)
    }

    @Test func duplicateSectionIsRejected() throws {
        let bytes = try edited { surgery in
            surgery.sections.append(surgery.sections[surgery.index(of: TraceFileSurgery.threads)])
        }
        #expect(TraceTestSupport.readError(bytes)?.caseName == "duplicateSection")
    }

    @Test func missingSectionIsRejected() throws {
        let bytes = try edited { $0.sections.remove(at: $0.index(of: TraceFileSurgery.threads)) }
        let error = TraceTestSupport.readError(bytes, path: "/tmp/t.lptrace")
        #expect(error == .missingSection(path: "/tmp/t.lptrace", section: "threads"))
    }

    @Test func unknownSectionsAreSkipped() throws {
        let original = try TraceTestSupport.smallRealTrace()
        let bytes = try edited(original) { surgery in
            surgery.sections.insert((tag: 99, payload: [1, 2, 3, 4, 5]), at: 1)
            surgery.sections.append((tag: 0x8000_0000, payload: []))
        }
        let expected = try TraceReader.parse(original, path: "p")
        #expect(try TraceReader.parse(bytes, path: "p") == expected)
    }

    @Test func badPolicyAndHeaderSizeAreRejected() throws {
        let policy = try edited { TraceFileSurgery.write(UInt32(5), into: &$0.header, at: 20) }
        #expect(TraceTestSupport.readError(policy)?.description.contains("overflow policy is 5") == true)
        let size = try edited { TraceFileSurgery.write(UInt32(40), into: &$0.header, at: 12) }
        #expect(TraceTestSupport.readError(size)?.description.contains("header size is 40 bytes") == true)
    }

    @Test func largerHeaderIsSkippedToItsDeclaredSize() throws {
        let originalBytes = try TraceTestSupport.smallRealTrace()
        let original = try TraceReader.parse(originalBytes, path: "p")
        let bytes = try edited(originalBytes) { surgery in
            TraceFileSurgery.write(UInt32(104), into: &surgery.header, at: 12)
            surgery.header += [UInt8](repeating: 0xAB, count: 8)
        }
        #expect(try TraceReader.parse(bytes, path: "p") == original)
    }

    @Test func threadNamedTwiceIsRejected() throws {
        let bytes = try edited { surgery in
            let at = surgery.index(of: TraceFileSurgery.threads)
            var payload = surgery.sections[at].payload
            let count = TraceFileSurgery.read(UInt32.self, payload, at: 0)
            payload += payload[4..<12]  // repeat the first entry
            TraceFileSurgery.write(count + 1, into: &payload, at: 0)
            surgery.sections[at].payload = payload
        }
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("is named twice") == true)
    }
}
