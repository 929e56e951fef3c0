import LaunchAnalysis

/// Page-cache residency of the cold-run file set just before a run.
public struct ResidencyReport: Sendable, Equatable, Codable {
    /// One file of the set, before (and after) the run.
    public struct File: Sendable, Equatable, Codable {
        /// The file.
        public var path: String
        /// Resident pages just before the run (after eviction).
        public var residentPages: Int
        /// Its size in pages.
        public var totalPages: Int
        /// Why the file could not be evicted, when it stayed resident.
        public var note: String?
        /// Resident pages just after the run: the difference is what the
        /// launch brought in from disk. nil in older files.
        public var residentPagesAfter: Int?
        /// True when launchprof itself maps the file (the C library, the
        /// loader, the C++ runtime of its statically linked Swift runtime):
        /// it cannot be evicted while launchprof runs, as on any running
        /// system, and does not make a run "not cold".
        public var expected: Bool?

        /// A file's residency, as the cold-cache preparer measures it.
        public init(
            path: String, residentPages: Int, totalPages: Int, note: String? = nil, residentPagesAfter: Int? = nil,
            expected: Bool? = nil
        ) {
            self.path = path
            self.residentPages = residentPages
            self.totalPages = totalPages
            self.note = note
            self.residentPagesAfter = residentPagesAfter
            self.expected = expected
        }

        /// Pages the run brought into the page cache (read from disk).
        public var pagesRead: Int? { residentPagesAfter.map { max(0, $0 - residentPages) } }
    }

    /// Each file checked, in launch order.
    public var files: [File]
    /// The page size the counts are in (bytes); nil in older files (4096).
    public var pageSize: Int?

    /// A report of `files`, whose pages are `pageSize` bytes.
    public init(files: [File], pageSize: Int? = nil) {
        self.files = files
        self.pageSize = pageSize
    }

    /// Pages resident before the run, over all files.
    public var residentPages: Int { files.reduce(0) { $0 + $1.residentPages } }
    /// Pages of all the files.
    public var totalPages: Int { files.reduce(0) { $0 + $1.totalPages } }
    /// Resident share of the file set, 0...1.
    public var residentFraction: Double {
        totalPages == 0 ? 0 : Double(residentPages) / Double(totalPages)
    }

    /// Resident share of the files that should have been evicted (those
    /// launchprof itself maps left out), 0...1.
    public var unexpectedResidentFraction: Double {
        let files = files.filter { $0.expected != true }
        let total = files.reduce(0) { $0 + $1.totalPages }
        return total == 0 ? 0 : Double(files.reduce(0) { $0 + $1.residentPages }) / Double(total)
    }

    /// Bytes the run read into the page cache, per file (largest first), when
    /// the residency after the run was measured.
    public var bytesRead: [(path: String, bytes: UInt64)] {
        let size = UInt64(pageSize ?? 4096)
        return files.compactMap { file in file.pagesRead.map { (file.path, UInt64($0) * size) } }
            .sorted { $0.bytes > $1.bytes }
    }

    /// All bytes the run read into the page cache, or nil when not measured.
    public var totalBytesRead: UInt64? {
        let read = bytesRead
        return read.isEmpty && !files.isEmpty && files.allSatisfy({ $0.residentPagesAfter == nil })
            ? nil : read.reduce(0) { $0 + $1.bytes }
    }
}
