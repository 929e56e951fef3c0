import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

@Suite("Cache: page-cache eviction and residency")
struct CachePageCacheTests {
    static let eightMiB = 8 << 20

    @Test("A file read is resident; evicted, it is (near) zero")
    func evictFile() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let file = try scratch.writeFile("data.bin", size: Self.eightMiB)
        try readWholeFile(file)
        let before = try PageCache.residency(of: file)
        #expect(before.totalPages == Self.eightMiB / PageCache.pageSize)
        #expect(try residentFraction(file) > 0.95)
        try PageCache.evict(path: file)
        #expect(try residentFraction(file) < 0.02)
    }

    @Test("A directory is evicted recursively")
    func evictDirectory() throws {
        let scratch = try ScratchDirectory.diskBacked()
        try FileManager.default.createDirectory(atPath: scratch.path + "/sub", withIntermediateDirectories: true)
        let first = try scratch.writeFile("a.bin", size: 1 << 20)
        let second = try scratch.writeFile("sub/b.bin", size: 1 << 20)
        try readWholeFile(first)
        try readWholeFile(second)
        let evicted = try PageCache.evict(path: scratch.path)
        #expect(Set(evicted) == [first, second])
        #expect(try residentFraction(first) < 0.02)
        #expect(try residentFraction(second) < 0.02)
    }

    @Test("An empty file has no pages; a missing one is a clear error")
    func edgeCases() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let empty = try scratch.writeFile("empty", size: 0)
        #expect(try PageCache.residency(of: empty).totalPages == 0)
        #expect(throws: PageCacheError.systemCall(path: "/no/such/file", call: "open", reason: "No such file or directory")) {
            try PageCache.residency(of: "/no/such/file")
        }
    }

    @Test("A file this process maps stays resident, and the note says so")
    func mappedFileStaysResident() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let file = try scratch.writeFile("mapped.bin", size: 1 << 20)
        let fd = open(file, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let size = 1 << 20
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0))
        try #require(mapping != UnsafeMutableRawPointer(bitPattern: -1))
        defer { munmap(mapping, size) }
        // Touch every page so it is in this process's page tables.
        var sum = 0
        for offset in stride(from: 0, to: size, by: PageCache.pageSize) {
            sum &+= Int(mapping.load(fromByteOffset: offset, as: UInt8.self))
        }
        #expect(sum > 0)
        let cache = try PageCacheEvictor()
        try PageCache.evict(file: file)
        let report = try cache.residency(of: [file])
        let entry = try #require(report.files.first)
        #expect(entry.residentPages == entry.totalPages)
        let note = try #require(entry.note)
        #expect(note.contains("pid \(getpid())"), "note: \(note)")
    }

    @Test("Dropping all caches is offered exactly when root can write drop_caches")
    func dropCachesAvailability() throws {
        let available = geteuid() == 0 && access("/proc/sys/vm/drop_caches", W_OK) == 0
        #expect((PageCache.dropAllCachesUnavailableReason == nil) == available)
        if !available {
            #expect(throws: PageCacheError.self) { try PageCacheEvictor(dropAllCaches: true) }
        }
    }
}
