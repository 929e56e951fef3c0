import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension MachineDescription {
    /// The machine this process runs on: hostname, kernel (uname), CPU model
    /// (/proc/cpuinfo), online CPUs and total memory (/proc/meminfo). Fields
    /// that cannot be read are "unknown" or 0 rather than an error: a result
    /// is still worth saving without them.
    public static func current() -> MachineDescription {
        MachineDescription(
            hostname: hostname(), kernel: kernel(), cpuModel: cpuModel(),
            cpuCount: Int(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))), memoryBytes: memoryBytes())
    }

    private static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "Linux 6.8.0-45-generic x86_64".
    private static func kernel() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown" }
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
    }

    /// x86 has "model name"; arm64 kernels may only have "CPU part" or nothing.
    private static func cpuModel() -> String {
        for key in ["model name", "Model", "Hardware", "cpu model", "CPU part"] {
            if let value = procField("/proc/cpuinfo", key) { return value }
        }
        return "unknown"
    }

    private static func memoryBytes() -> UInt64 {
        // "MemTotal:       16318436 kB"
        guard let value = procField("/proc/meminfo", "MemTotal"),
            let kibibytes = UInt64(value.split(separator: " ").first ?? "")
        else { return 0 }
        return kibibytes * 1024
    }

    /// The value of the first "key : value" line of a /proc file.
    package static func procField(_ path: String, _ key: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
