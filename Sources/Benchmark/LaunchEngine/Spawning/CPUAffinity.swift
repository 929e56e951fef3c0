import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// A set of CPUs a thread may run on (sched_setaffinity(2)), as pyperf's
/// `--affinity` takes it: "0", "1,3", "0-2,5".
///
/// Set on the thread that starts `lp-spawn`, it is inherited by the spawner
/// and so by every process it launches: the measured programs run only on
/// these CPUs (docs/gate.md, "Pinning").
public struct CPUAffinity: Sendable, Equatable, CustomStringConvertible {
    /// The CPUs, ascending, without repeats.
    public var cpus: [Int]

    /// The most CPUs a `cpu_set_t` holds.
    public static let capacity = MemoryLayout<cpu_set_t>.size * 8

    /// The set `cpus` (sorted, repeats dropped).
    public init(cpus: [Int]) { self.cpus = Array(Set(cpus)).sorted() }

    /// "0-2,5" read as CPUs 0, 1, 2 and 5; an empty list, a bad number, a
    /// range backwards or a CPU past ``capacity`` is refused, naming it.
    public init(parsing text: String) throws(CPUAffinityError) {
        var cpus: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let first = Int(bounds[0]), let last = Int(bounds[bounds.count - 1]),
                first >= 0, first <= last, last < Self.capacity
            else { throw .malformed(text, item: String(item)) }
            cpus += Array(first...last)
        }
        self.init(cpus: cpus)
    }

    /// "0-2,5".
    public var description: String {
        var parts: [String] = []
        var index = 0
        while index < cpus.count {
            var end = index
            while end + 1 < cpus.count, cpus[end + 1] == cpus[end] + 1 { end += 1 }
            parts.append(end == index ? "\(cpus[index])" : "\(cpus[index])-\(cpus[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    /// The calling thread's CPUs.
    public static func current() throws(CPUAffinityError) -> CPUAffinity {
        var set = cpu_set_t()
        do throws(SystemCallError) {
            _ = try Syscall.check("sched_getaffinity") { lp_sched_getaffinity(MemoryLayout<cpu_set_t>.size, &set) }
        } catch {
            throw .system(error)
        }
        var cpus: [Int] = []
        withUnsafeBytes(of: &set) { bytes in
            for cpu in 0..<capacity where bytes[cpu / 8] & (1 << (cpu % 8)) != 0 { cpus.append(cpu) }
        }
        return CPUAffinity(cpus: cpus)
    }

    /// Sets one bit per CPU in `bytes`, as a `cpu_set_t` holds them (CPU n
    /// is bit n % 8 of byte n / 8); a CPU past the end of `bytes` is left
    /// out (none is: every CPU is below ``capacity``, checked when parsed
    /// or read, and a set is that many bits).
    package func write(to bytes: UnsafeMutableRawBufferPointer) {
        for cpu in cpus where cpu >= 0 && cpu / 8 < bytes.count { bytes[cpu / 8] |= UInt8(1 << (cpu % 8)) }
    }

    /// Restricts the calling thread (and what it starts from now on) to
    /// these CPUs; a CPU this thread may not use is refused, naming the
    /// ones it may.
    public func apply() throws(CPUAffinityError) {
        let allowed = try Self.current()
        let outside = cpus.filter { !allowed.cpus.contains($0) }
        guard outside.isEmpty, !cpus.isEmpty else { throw .unavailable(self, allowed: allowed) }
        try restore()
    }

    /// Sets the calling thread's CPUs to these without comparing them with
    /// its current ones: to give a pinned thread back the set it had.
    package func restore() throws(CPUAffinityError) {
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { write(to: $0) }
        do throws(SystemCallError) {
            _ = try Syscall.check("sched_setaffinity") { lp_sched_setaffinity(MemoryLayout<cpu_set_t>.size, &set) }
        } catch {
            throw .system(error)
        }
    }
}
