import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

@Suite("Cache: preparing cold runs", .serialized)
struct CacheColdRunTests {
    /// Maps the file named by argv[1] and touches every page: each page not in
    /// the page cache is a major fault.
    static let pageToucher = """
        #include <fcntl.h>
        #include <sys/mman.h>
        #include <sys/stat.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            if (argc < 2) return 2;
            int fd = open(argv[1], O_RDONLY);
            struct stat st;
            if (fd < 0 || fstat(fd, &st) != 0) return 3;
            volatile unsigned char *p = mmap(0, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
            if (p == MAP_FAILED) return 4;
            // No readahead: every page read from the disk is a major fault
            // of its own (with readahead and large folios a kernel may read
            // the whole file on the first fault: a CI run saw 1 cold).
            madvise((void *)p, st.st_size, MADV_RANDOM);
            unsigned sum = 0;
            for (off_t i = 0; i < st.st_size; i += 4096) sum += p[i];
            return sum == 0 ? 5 : 0;
        }
        """

    @Test("prepare evicts the target and its --evict files and reports residency")
    func prepareReportsResidency() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let program = try scratch.compile("toucher", Self.pageToucher)
        let data = try scratch.writeFile("data.bin", size: 8 << 20)
        let target = LaunchTarget(name: "toucher", arguments: [program, data], evictPaths: [scratch.path])
        #expect(try runProcess([program, data]).status == 0)
        let cache = try PageCacheEvictor()
        let report = try #require(try cache.prepare(target: target))
        let byPath = Dictionary(uniqueKeysWithValues: report.files.map { ($0.path, $0) })
        let dataEntry = try #require(byPath[data])
        #expect(dataEntry.residentPages * 50 < dataEntry.totalPages, "data still resident: \(dataEntry)")
        let programEntry = try #require(byPath[FilePaths.canonical(program)!])
        #expect(programEntry.residentPages * 10 <= programEntry.totalPages)
        // libc is mapped by nearly every process (this one included), so it stays, with a reason.
        let libc = try #require(report.files.first { $0.path.hasSuffix("/libc.so.6") })
        if libc.residentPages * 10 > libc.totalPages {
            #expect(libc.note?.contains("mapped by") == true, "libc note: \(String(describing: libc.note))")
        }
    }

    @Test("The file set is resolved once per target")
    func fileSetIsCached() throws {
        let cache = try PageCacheEvictor()
        let target = LaunchTarget(name: "env", arguments: ["/usr/bin/env"])
        let first = try cache.fileSet(for: target)
        #expect(try cache.fileSet(for: target) == first)
    }

    @Test("A missing --evict path is a clear error")
    func missingEvictPath() throws {
        let cache = try PageCacheEvictor()
        let target = LaunchTarget(name: "env", arguments: ["/usr/bin/env"], evictPaths: ["/no/such/dir"])
        #expect(throws: FileSetError.evictPathNotFound(path: "/no/such/dir")) { try cache.prepare(target: target) }
    }

    /// The real check: after eviction a launch page-faults its files in from
    /// disk (major faults); warm, it finds them in the page cache.
    ///
    /// Expect few major faults even cold: a major fault counts a fault that
    /// waited for I/O, and the kernel's readahead fills a whole window per
    /// wait (read_ahead_kb is 8192 on this VM's disk), so the 16 MiB file plus
    /// the executable cost about 3 major faults cold and 0 warm. The assertion
    /// is therefore "more", not "many".
    @Test("Cold runs take more major faults than warm runs")
    func coldRunsFaultMore() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let program = try scratch.compile("toucher", Self.pageToucher)
        let data = try scratch.writeFile("data.bin", size: 16 << 20)
        let target = LaunchTarget(name: "toucher", arguments: [program, data], evictPaths: [data])
        let cache = try PageCacheEvictor()
        var cold: [Int] = [], warm: [Int] = []
        for _ in 0..<3 {
            let report = try #require(try cache.prepare(target: target))
            let dataEntry = try #require(report.files.first { $0.path == data })
            #expect(dataEntry.residentPages * 50 < dataEntry.totalPages)
            let coldRun = try runProcess([program, data])
            #expect(coldRun.status == 0)
            cold.append(coldRun.majorFaults)
            let warmRun = try runProcess([program, data])
            #expect(warmRun.status == 0)
            warm.append(warmRun.majorFaults)
        }
        print("major faults per run: cold \(cold), warm \(warm)")
        #expect(cold.min()! > warm.max()!, "major faults cold \(cold) vs warm \(warm)")
    }
}
