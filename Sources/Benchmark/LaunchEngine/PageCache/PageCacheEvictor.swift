import Foundation
import Glibc
import Synchronization

/// Prepares cold runs: before each one, evicts the target's file set from the
/// page cache, then measures what is still resident and explains why.
///
/// The file set (executable, interpreter, shared libraries, via
/// `SharedLibraryResolver`) is resolved once per target and kept; `--evict`
/// paths are expanded before every run, since a directory's contents may
/// change. With `dropAllCaches`, the whole page cache is dropped instead of
/// evicting file by file (root only).
package final class PageCacheEvictor: Sendable {
    /// A file above this resident share after eviction gets a note saying why.
    package let residentThreshold: Double
    /// Drop every cache (/proc/sys/vm/drop_caches) instead of per-file eviction.
    package let dropsAllCaches: Bool
    private let resolver: SharedLibraryResolver
    private let fileSets = Mutex<[TargetKey: LaunchFileSet]>([:])
    /// The C and C++ runtime files this process maps (read once): they stay
    /// cached whatever it evicts, as on any running system, where every
    /// process maps the C library and the loader. Anything else this process
    /// maps (a Swift runtime, when the engine runs inside a Swift test) is a
    /// real obstacle to a cold run and is reported as one.
    private let ownMappings: Set<String>
    /// Name prefixes of the system's C and C++ runtime.
    static let systemRuntimePrefixes = [
        "libc.so", "ld-linux", "libm.so", "libstdc++.so", "libgcc_s.so", "libpthread.so", "libdl.so", "librt.so",
    ]

    /// Fails at once when `dropAllCaches` is asked for on a machine that does
    /// not allow it, rather than before the first run.
    package init(
        dropAllCaches: Bool = false, residentThreshold: Double = 0.10, resolver: SharedLibraryResolver = .init()
    ) throws(PageCacheError) {
        if dropAllCaches, let reason = PageCache.dropAllCachesUnavailableReason {
            throw .dropCachesUnavailable(reason: reason)
        }
        self.dropsAllCaches = dropAllCaches
        self.residentThreshold = residentThreshold
        self.resolver = resolver
        ownMappings = Self.filesMappedByThisProcess()
    }

    /// The system runtime files in /proc/self/maps, canonical.
    static func filesMappedByThisProcess() -> Set<String> {
        guard let maps = ProcFile.read("/proc/self/maps") else { return [] }
        var files: Set<String> = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard !path.hasSuffix(" (deleted)"), systemRuntimePrefixes.contains(where: { name.hasPrefix($0) }) else { continue }
            files.insert(FilePaths.canonical(path) ?? path)
        }
        return files
    }

    /// `report` with each file's residency measured again, after the run.
    package func measureAfterRun(_ report: ResidencyReport) -> ResidencyReport {
        var updated = report
        for index in updated.files.indices {
            updated.files[index].residentPagesAfter = try? PageCache.residency(of: updated.files[index].path).residentPages
        }
        return updated
    }

    /// The target's launch file set, resolved on first use and cached.
    package func fileSet(for target: LaunchTarget) throws(FileSetError) -> LaunchFileSet {
        let key = TargetKey(target)
        if let known = fileSets.withLock({ $0[key] }) { return known }
        let resolved = try resolver.fileSet(for: target)
        fileSets.withLock { $0[key] = resolved }
        return resolved
    }

    /// Every file a cold run of `target` evicts: its file set, then the
    /// regular files of its `--evict` paths.
    package func filesToEvict(for target: LaunchTarget) throws -> [String] {
        var files = try fileSet(for: target).files
        for path in target.evictPaths {
            guard access(path, F_OK) == 0 else { throw FileSetError.evictPathNotFound(path: path) }
            for file in try PageCache.regularFiles(under: path) {
                let canonical = FilePaths.canonical(file) ?? file
                if !files.contains(canonical) { files.append(canonical) }
            }
        }
        return files
    }

    /// Evicts `target`'s files and reports their residency just after.
    package func prepare(target: LaunchTarget) throws -> ResidencyReport? {
        let files = try filesToEvict(for: target)
        if dropsAllCaches {
            try PageCache.dropAllCaches()
        } else {
            for file in files { try PageCache.evict(file: file) }
        }
        return try residency(of: files)
    }

    /// The residency of `files`, with a note on each file above the threshold.
    package func residency(of files: [String]) throws -> ResidencyReport {
        var entries = try files.map { path throws(PageCacheError) in try PageCache.residency(of: path) }
        for index in entries.indices where ownMappings.contains(entries[index].path) {
            entries[index].expected = true
            entries[index].note = "the C or C++ runtime, mapped by launchprof itself as by most processes of a running system"
        }
        let stuck = entries.indices.filter { entries[$0].expected != true && isResident(entries[$0]) }
        guard !stuck.isEmpty else { return ResidencyReport(files: entries, pageSize: PageCache.pageSize) }
        let mappings = ProcessMappings.scan(for: stuck.map { entries[$0].path })
        for index in stuck {
            entries[index].note = ResidencyExplanation.note(for: entries[index].path, mappings: mappings)
        }
        return ResidencyReport(files: entries, pageSize: PageCache.pageSize)
    }

    private func isResident(_ file: ResidencyReport.File) -> Bool {
        file.totalPages > 0 && Double(file.residentPages) / Double(file.totalPages) > residentThreshold
    }
}

/// What identifies a target's file set: what is executed and how it is found.
private struct TargetKey: Hashable {
    var arguments: [String]
    var useShell: Bool
    var environment: [String: String]
    var workingDirectory: String?

    init(_ target: LaunchTarget) {
        arguments = target.arguments.prefix(1).map(\.string)
        useShell = target.useShell
        environment = target.environment
        workingDirectory = target.workingDirectory
    }
}
