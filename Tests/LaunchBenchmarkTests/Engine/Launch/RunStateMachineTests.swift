import Glibc
import LaunchProfFiles
import Testing

@testable import LaunchEngine

/// The run loop's decisions, driven by scripted events: no process, no
/// clock, no race. Each case is a sequence of events at given times and
/// the actions and figures it must produce.
@Suite struct RunStateMachineTests {
    static let second: UInt64 = 1_000_000_000

    func machine(
        readyAtExit: Bool = false, trace: Bool = false, warm: Bool = false, cycle: Bool = false, timeout: UInt64 = 10 * second,
        grace: UInt64 = 2 * second
    ) -> RunStateMachine {
        RunStateMachine(
            plan: .init(
                readyAtExit: readyAtExit, awaitsTrace: trace, sendsWarmRequest: warm, cyclesSuspend: cycle, timeout: timeout,
                grace: grace), start: 1000)
    }

    @Test func readyThenStopWithinGraceIsAStopBySIGTERM() {
        var run = machine()
        #expect(run.handle(.ready(at: 5000), now: 5100) == [.signal(SIGTERM)])
        #expect(run.phase == .stopping)
        #expect(run.deadline == 5100 + 2 * Self.second)
        #expect(run.handle(.exited(at: 6000), now: 6000) == [])
        #expect(run.end == .exited)
        #expect(run.readyAt == 5000 && run.stopSignal == SIGTERM && run.stopSentAt == 5100)
    }

    @Test func aProgramThatIgnoresSIGTERMIsKilledAtTheEndOfTheGracePeriod() {
        var run = machine(grace: 100)
        _ = run.handle(.ready(at: 5000), now: 5000)
        #expect(run.tick(now: 5099) == [])
        #expect(run.tick(now: 5100) == [.signal(SIGKILL)])
        #expect(run.end == .killedAfterGrace && run.stopSignal == SIGKILL)
    }

    @Test func noReadyBeforeTheTimeoutKillsTheRun() {
        var run = machine(timeout: 500)
        #expect(run.tick(now: 1499) == [])
        #expect(run.tick(now: 1500) == [.signal(SIGKILL)])
        #expect(run.end == .timedOut)
        // Nothing after the end changes it.
        #expect(run.handle(.ready(at: 1600), now: 1600) == [])
        #expect(run.readyAt == nil)
    }

    @Test func readyAndExitInOneRoundCountReadyButStopNothing() {
        var run = machine()
        let actions = run.handle([.exited(at: 4000), .ready(at: 3000)], now: 4100)
        #expect(actions == [], "no SIGTERM to a process that is gone")
        #expect(run.readyAt == 3000 && run.exitedAt == 4000)
        #expect(run.end == .exited && run.stopSignal == nil)
    }

    @Test func readyAtExitIsTheExit() {
        var run = machine(readyAtExit: true)
        #expect(run.handle(.ready(at: 2000), now: 2000) == [], "a probe event does not count for --ready exit")
        _ = run.handle(.exited(at: 3000), now: 3000)
        #expect(run.readyAt == 3000 && run.end == .exited)
    }

    @Test func afterReadyTheStepsComeInOrderEachWithItsDeadline() {
        var run = machine(trace: true, warm: true, cycle: true, timeout: 1000, grace: 100)
        #expect(run.handle(.ready(at: 2000), now: 2000) == [.awaitTrace])
        #expect(run.phase == .awaitingTrace && run.deadline == 2100)
        #expect(run.handle(.warmResponse(.success(7)), now: 2010) == [], "not waited for yet")
        #expect(run.handle(.traceWritten, now: 2050) == [.sendWarmRequest])
        #expect(run.phase == .warmRequest && run.deadline == 3050)
        #expect(run.handle(.warmResponse(.success(300)), now: 2400) == [.signal(SIGTSTP)])
        #expect(run.warmRequest == 300)
        #expect(run.handle(.resumed(at: 2450), now: 2450) == [], "a resume before the stop is not the cycle's")
        #expect(run.handle(.stopped(at: 2500), now: 2510) == [.signal(SIGCONT)])
        #expect(run.timeToSuspend == 100 && run.phase == .resuming(sentAt: 2510))
        #expect(run.handle(.resumed(at: 2600), now: 2620) == [.signal(SIGTERM)])
        #expect(run.timeToResume == 90 && run.phase == .stopping)
    }

    @Test func aTraceNeverWrittenOrAWarmRequestNeverAnsweredEndsAtItsDeadline() {
        var run = machine(trace: true, warm: true, timeout: 1000, grace: 100)
        _ = run.handle(.ready(at: 2000), now: 2000)
        #expect(run.tick(now: 2100) == [.sendWarmRequest], "the trace's wait is the grace period")
        #expect(run.tick(now: 3099) == [])
        #expect(run.tick(now: 3100) == [.signal(SIGTERM)], "the warm request's wait is the timeout")
        #expect(run.notes.contains { $0.contains("the warm request") && $0.contains("no whole response") })
        #expect(run.warmRequest == nil)
    }

    @Test func ctrlCEndsEveryPhaseAtOnce() {
        let phases: [(RunStateMachine) -> RunStateMachine] = [
            { $0 },
            {
                var m = $0
                _ = m.handle(.ready(at: 2000), now: 2000)
                return m
            },
        ]
        for reach in phases {
            var run = reach(machine(trace: true, warm: true))
            #expect(run.handle(.interrupted, now: 2500) == [.signal(SIGKILL)])
            #expect(run.end == .interrupted)
        }
        var warm = machine(warm: true)
        _ = warm.handle(.ready(at: 2000), now: 2000)
        #expect(warm.phase == .warmRequest)
        #expect(warm.handle(.interrupted, now: 2001) == [.signal(SIGKILL)], "the warm request does not hold Ctrl-C back")
    }

    @Test func aFailureAbortsWithItsReason() {
        var run = machine()
        #expect(run.handle(.failed(.protocolError("LP9 what")), now: 1500) == [.signal(SIGKILL)])
        #expect(run.end == .aborted(.protocolError("LP9 what")))
        var cycle = machine(cycle: true, timeout: 100)
        _ = cycle.handle(.ready(at: 2000), now: 2000)
        #expect(cycle.tick(now: 2100) == [.signal(SIGKILL)])
        #expect(cycle.end == .aborted(.measure("--measure resume: the process did not stop after SIGTSTP")))
    }

    @Test func theFirstReadyWins() {
        var run = machine()
        _ = run.handle(.ready(at: 2000), now: 2000)
        _ = run.handle(.ready(at: 1500), now: 2001)
        #expect(run.readyAt == 2000)
    }

    @Test func absurdDurationsSaturateInsteadOfTrapping() {
        var run = RunStateMachine(
            plan: .init(timeout: .max, grace: .max), start: .max - 5)
        #expect(run.tick(now: .max - 1) == [])
        _ = run.handle(.ready(at: .max - 1), now: .max - 1)
        #expect(run.phase == .stopping)
        #expect(Duration.seconds(Int64.max).saturatingNanoseconds == .max)
        #expect(Duration.seconds(-1).saturatingNanoseconds == 0)
        #expect(Duration.milliseconds(1500).saturatingNanoseconds == 1_500_000_000)
    }
}
