import Glibc
import Testing

@testable import LaunchProf

/// With tracing disabled a Signposter reads the enabled flag and nothing
/// else: no id is made, nothing is recorded. Checked in a child process (an
/// exit test), because other tests turn tracing on in this one.
@Suite("Signposter, tracing disabled")
struct SignposterDisabledTests {
    @Test("beginInterval and friends make no id and record no event")
    func noIDNoEvent() async {
        await #expect(processExitsWith: .success) {
            Tracer.disable()
            let signposter = Signposter(subsystem: "tests", category: "disabled")
            // Ids are the thread id and a per-thread counter: two ids made
            // around the calls are consecutive only if none was made between.
            let first = SignpostID.make().rawValue
            let plain = signposter.beginInterval("plain")
            let valued = signposter.beginInterval("valued", value: 1)
            let dynamic = signposter.beginInterval(dynamicName: "dynamic")
            let given = signposter.beginInterval("given", id: SignpostID(42))
            signposter.endInterval("plain", plain)
            signposter.endInterval("valued", valued, value: 2)
            signposter.endInterval(dynamicName: "dynamic", dynamic)
            signposter.emitEvent("event")
            signposter.emitEvent(dynamicName: "event")
            let next = SignpostID.make().rawValue
            let states = [plain, valued, dynamic].map(\.id)
            guard states.allSatisfy({ $0 == .exclusive }), given.id == SignpostID(42), next == first + 1,
                let ring = TraceRing.global, ring.snapshot().isEmpty
            else { exit(1) }
        }
    }
}
