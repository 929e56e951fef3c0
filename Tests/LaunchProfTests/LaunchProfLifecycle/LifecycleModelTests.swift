import Glibc
import Testing

@testable import LaunchProfLifecycle

/// The parts of the lifecycle that need no signal: the state machine's
/// rules, configuration checks, and how an unavailable PSI trigger is
/// reported (real files: a missing one, and this machine's own).
@Suite("Lifecycle: model and configuration")
struct LifecycleModelTests {
    @Test("transitions: neighbours in the chain, launching to active or background, anything to terminating")
    func stateMachine() {
        let allowed: Set<String> = [
            "launching>active", "launching>background", "active>inactive", "inactive>active", "inactive>background",
            "background>inactive", "background>suspended", "suspended>background",
        ]
        for from in LifecycleState.allCases {
            for to in LifecycleState.allCases {
                let expected = from != .terminating && (to == .terminating || allowed.contains("\(from)>\(to)"))
                #expect(from.canMove(to: to) == expected, "\(from) -> \(to)")
            }
        }
    }

    @Test(
        "an out-of-range configuration is refused by start, naming the field",
        arguments: [
            ("terminateBudget", "terminateBudget cannot be negative"), ("heartbeat", "heartbeat must be at least 1 ms"),
            ("window", "memoryPressure.window must be between 500 ms and 10 s"),
            ("stall", "memoryPressure.stall must be positive and at most the window"),
        ])
    func badConfiguration(field: String, message: String) {
        var configuration = LifecycleConfiguration()
        switch field {
        case "terminateBudget": configuration.terminateBudget = .seconds(-1)
        case "heartbeat": configuration.heartbeat = .microseconds(10)
        case "window": configuration.memoryPressure = MemoryPressureTrigger(window: .seconds(30))
        default: configuration.memoryPressure = MemoryPressureTrigger(stall: .seconds(3), window: .seconds(2))
        }
        #expect {
            try Lifecycle.shared.start(configuration)
        } throws: { error in
            (error as? LifecycleError)?.description.contains(message) == true
        }
        #expect(Lifecycle.shared.state == .launching)
    }

    @Test("the PSI trigger text is what the kernel reads: kind, stall and window in microseconds")
    func triggerText() {
        #expect(MemoryPressureTrigger().triggerText == "some 150000 2000000")
        #expect(MemoryPressureTrigger(kind: .full, stall: .milliseconds(50), window: .seconds(4)).triggerText == "full 50000 4000000")
    }

    @Test("a pressure file that does not exist is reported as unavailable, naming the file and why")
    func missingPressureFile() {
        let trigger = MemoryPressureTrigger(path: "/nonexistent/memory.pressure")
        guard case .failure(let failure) = MemoryPressureMonitor.open(trigger) else {
            Issue.record("a trigger on a missing file was armed")
            return
        }
        #expect(
            failure.reason
                == "cannot arm 'some 150000 2000000' on /nonexistent/memory.pressure: No such file or directory (no PSI: kernel without CONFIG_PSI, or booted with psi=0)"
        )
    }

    @Test("the default trigger arms on this machine's pressure file, or says why not")
    func defaultTrigger() {
        switch MemoryPressureMonitor.open(MemoryPressureTrigger()) {
        case .success(let monitor):
            #expect(monitor.path.hasSuffix("memory.pressure") || monitor.path == "/proc/pressure/memory")
            close(monitor.fd)
        case .failure(let failure):
            // Kernels without PSI: the reason must name the file.
            #expect(failure.reason.contains("/proc/pressure/memory"))
        }
    }
}
