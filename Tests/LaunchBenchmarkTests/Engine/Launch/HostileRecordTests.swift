import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchEngine

/// A program that floods the record socket and the notify socket: the cap
/// counts records (not datagrams), every pass over a run's milestones is
/// linear, and a readiness message that did not count is named.
@Suite("Records and notify messages from a hostile program", .serialized)
struct HostileRecordTests {
    /// Sends 2,000 datagrams of 100 milestones each (distinct names), then
    /// `ready`, then stays up.
    static let datagramFlood = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <time.h>
        #include <unistd.h>
        #include <sys/socket.h>
        static unsigned long long now(void) {
            struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
            return (unsigned long long)t.tv_sec * 1000000000ull + t.tv_nsec;
        }
        int main(void) {
            int fd = atoi(getenv("LAUNCHPROF_RECORD_FD"));
            static char datagram[100 * 64];
            for (int d = 0; d < 2000; d++) {
                int length = 0;
                for (int m = 0; m < 100; m++)
                    length += snprintf(datagram + length, sizeof datagram - length, "LP1 milestone %llu m%d-%d\\n", now(), d, m);
                while (send(fd, datagram, length, 0) < 0) usleep(100);
            }
            char ready[64];
            int n = snprintf(ready, sizeof ready, "LP1 ready %llu\\n", now());
            send(fd, ready, n, 0);
            for (;;) pause();
        }
        """

    @Test("2,000 datagrams of 100 milestones keep 10,000 records, said once", .timeLimit(.minutes(2)))
    func recordCapCountsRecords() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("datagrams", Self.datagramFlood)
        let run = try launchOnce(LaunchTarget(name: "datagrams", arguments: [binary], ready: .tracer), timeout: .seconds(60))
        #expect(run.milestones.count == RecordChannel.limit)
        #expect(run.notes.contains { $0.contains("more than \(RecordChannel.limit) records") })
        // Past the cap milestones are dropped, but readiness still counts.
        #expect(run.wallToReady != nil, "\(run.failure ?? "")")
    }

    @Test("summaries and attribution of runs with 10,000 milestones each are linear", .timeLimit(.minutes(1)))
    func milestoneSummariesAreLinear() {
        let names = (0..<RecordChannel.limit).map { "m\($0)" }
        func run(_ index: Int, shift: UInt64) -> RunMeasurement {
            RunMeasurement(
                index: index, wallToExit: 50_000_000 + shift, wallToReady: 40_000_000 + shift,
                milestones: names.enumerated().map { MilestoneTime(name: $1, nanoseconds: UInt64($0) * 1_000 + shift) },
                exit: .exited(0))
        }
        let runs = (0..<20).map { run($0, shift: UInt64($0) * 10) }
        let summaries = Summarizer().summaries(of: runs)
        #expect(summaries.count >= RecordChannel.limit)
        #expect(summaries["milestone:m9999"]?.median != nil)
        let phases = LaunchAttribution.phases(before: Array(runs.prefix(10)), after: Array(runs.suffix(10)))
        #expect(phases.count == RecordChannel.limit + 1)
        #expect(phases[1].before.count == 10 && phases[1].after.count == 10)
    }

    @Test("systemd-notify's READY=1, sent with its parent's pid, is named with why it did not count")
    func ignoredReadyIsNamed() throws {
        let candidates: [String] = ["/usr/bin/systemd-notify", "/bin/systemd-notify"]
        guard let notify = candidates.first(where: { access($0, X_OK) == 0 }) else {
            Issue.record("systemd-notify is not installed (Scripts/install-deps.sh installs systemd)")
            return
        }
        let run = try launchOnce(
            LaunchTarget(name: "notify", arguments: [notify, "--ready"], ready: .notify), timeout: .seconds(10))
        let failure = try #require(run.failure)
        #expect(failure.contains("exited before it was ready"), "\(failure)")
        #expect(failure.contains("ignored READY=1"), "\(failure)")
        #expect(failure.contains("spawner"), "the reason: \(failure)")
        #expect(run.notes.contains { $0.contains("ignored READY=1") })
    }
}
