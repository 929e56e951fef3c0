import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfFiles

/// The PSI trigger behind ``LifecycleEvent/memoryPressure(_:)``.
struct MemoryPressureMonitor {
    let fd: Int32
    let path: String

    /// Arms `trigger`, or says why it cannot be armed here.
    static func open(_ trigger: MemoryPressureTrigger) -> Result<MemoryPressureMonitor, MonitorFailure> {
        let candidates = trigger.path.map { [$0] } ?? [cgroupPressurePath(), "/proc/pressure/memory"].compactMap { $0 }
        var failures: [String] = []
        for path in candidates {
            let fd = lp_psi_trigger_open(path, trigger.triggerText)
            if fd >= 0 { return .success(MemoryPressureMonitor(fd: fd, path: path)) }
            failures.append(explain(path: path, trigger: trigger, code: errno))
        }
        return .failure(MonitorFailure(reason: failures.joined(separator: "; ")))
    }

    private static func explain(path: String, trigger: MemoryPressureTrigger, code: Int32) -> String {
        let text = "cannot arm '\(trigger.triggerText)' on \(path): \(errnoText(code))"
        switch code {
        case ENOENT: return text + " (no PSI: kernel without CONFIG_PSI, or booted with psi=0)"
        case EINVAL: return text + " (without CAP_SYS_RESOURCE the window must be a multiple of 2 s)"
        case EACCES, EPERM: return text + " (no permission to write the pressure file)"
        case EOPNOTSUPP: return text + " (PSI disabled: boot with psi=1)"
        default: return text
        }
    }

    /// `<cgroup2 mount><path>/memory.pressure` for this process's cgroup v2,
    /// when it exists (the root cgroup has none: the system file applies).
    static func cgroupPressurePath() -> String? {
        guard let membership = FileText.text("/proc/self/cgroup"),
            let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let group = line.dropFirst(3)
        guard group != "/", let mounts = FileText.text("/proc/self/mountinfo") else { return nil }
        for mount in mounts.split(separator: "\n") {
            // "<id> <parent> <dev> <root> <mount point> <options> … - <fstype> …"
            let halves = mount.split(separator: " - ", maxSplits: 1)
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            guard fields.count >= 5 else { continue }
            let path = "\(fields[4])\(group)/memory.pressure"
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// Whether the trigger fired (POLLPRI seen); the caller polled `fd`.
    static func fired(_ revents: Int16) -> Bool { revents & Int16(POLLPRI) != 0 }
}

/// Why a kernel notification could not be armed.
struct MonitorFailure: Error {
    var reason: String
}
