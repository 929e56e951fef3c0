import Foundation
import Glibc
import LaunchSupport

/// Which processes map which files, from /proc/PID/maps.
///
/// Explains why a file stays in the page cache after POSIX_FADV_DONTNEED: the
/// kernel never drops a page some process has mapped. Files are matched by
/// path and by device + inode (so a file reached through another name, or a
/// bind mount, still matches). Other users' maps need root (or ptrace rights);
/// those processes are counted as unreadable.
package struct ProcessMappings: Sendable {
    /// For each file asked about, the pids mapping it, ascending.
    package var mappers: [String: [Int32]]
    /// Processes whose maps could not be read.
    package var unreadableProcesses: Int

    /// Scans every process once for the given files.
    package static func scan(for paths: [String]) -> ProcessMappings {
        let identities = Dictionary(paths.compactMap { path in FileIdentity(path: path).map { ($0, path) } }) { first, _ in first }
        let wanted = Set(paths)
        var result = ProcessMappings(mappers: [:], unreadableProcesses: 0)
        for pid in processIDs() {
            guard let maps = ProcFile.read("/proc/\(pid)/maps") else {
                result.unreadableProcesses += 1
                continue
            }
            var found = Set<String>()
            for line in maps.split(separator: "\n") {
                guard let entry = MapsEntry(line) else { continue }
                if wanted.contains(entry.path) { found.insert(entry.path) }
                if let path = identities[entry.identity] { found.insert(path) }
            }
            for path in found { result.mappers[path, default: []].append(pid) }
        }
        return result
    }

    /// A sentence for a report: who maps `path`, e.g. "mapped by 143 other
    /// processes, e.g. pid 1 (systemd)". Nil when nobody does.
    package func note(for path: String, selfPID: Int32 = getpid()) -> String? {
        guard let pids = mappers[path], !pids.isEmpty else { return nil }
        let others = pids.filter { $0 != selfPID }
        var parts: [String] = []
        if pids.contains(selfPID) { parts.append("this process (pid \(selfPID), launchprof itself)") }
        if let example = others.first {
            let noun = others.count == 1 ? "other process" : "other processes"
            parts.append("\(others.count) \(noun), e.g. pid \(example) (\(Self.command(of: example)))")
        }
        return "mapped by " + parts.joined(separator: " and by ")
            + "; the kernel keeps mapped pages while those processes live"
    }

    /// The process's command name (/proc/PID/comm), or "?" when it is gone.
    package static func command(of pid: Int32) -> String {
        let text = ProcFile.read("/proc/\(pid)/comm") ?? "?"
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func processIDs() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { Int32($0) }.sorted()
    }
}

/// A file's device and inode, as /proc/PID/maps shows them.
struct FileIdentity: Hashable {
    var major: UInt64, minor: UInt64, inode: UInt64

    init(major: UInt64, minor: UInt64, inode: UInt64) {
        self.major = major
        self.minor = minor
        self.inode = inode
    }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let device = UInt64(info.st_dev)
        // glibc's gnu_dev_major/minor, which Swift does not import (macros).
        major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        inode = UInt64(info.st_ino)
    }
}

/// One line of /proc/PID/maps: `start-end perms offset MAJ:MIN inode path`.
struct MapsEntry {
    var identity: FileIdentity
    var path: String

    init?(_ line: Substring) {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count == 6, let inode = UInt64(fields[4]), inode != 0 else { return nil }
        let device = fields[3].split(separator: ":")
        guard device.count == 2, let major = UInt64(device[0], radix: 16), let minor = UInt64(device[1], radix: 16)
        else { return nil }
        identity = FileIdentity(major: major, minor: minor, inode: inode)
        path = fields[5].trimmingCharacters(in: .whitespaces)
    }
}

/// Reads a /proc file to its end. They report size 0 and are generated as
/// they are read, so this loops on read(2) rather than trusting st_size.
enum ProcFile {
    static func read(_ path: String) -> String? {
        guard let raw = try? Syscall.check("open", path, { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        let fd = FileDescriptor(raw)
        defer { fd.close() }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            guard let count = chunk.withUnsafeMutableBytes({ buffer in (try? fd.read(into: buffer)) ?? nil }) else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
