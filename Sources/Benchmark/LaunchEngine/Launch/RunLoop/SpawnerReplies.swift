import Glibc

/// The spawner's reports on the launched process (its pid for a quiet
/// spawn, a failed spawn, its stops and its exit), as run events.
final class SpawnerReplies: RunEventSource {
    private let process: LaunchedProcess
    private var reportedStop: UInt64?

    init(process: LaunchedProcess) { self.process = process }

    var pollRequest: pollfd? { pollfd(fd: process.eventDescriptor, events: Int16(POLLIN), revents: 0) }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        if revents != 0 { try process.takeEvents() }
        if let failure = process.spawnFailure { throw failure }
        var events: [RunEvent] = []
        if let stopped = process.stoppedAt, stopped != reportedStop {
            reportedStop = stopped
            events.append(.stopped(at: stopped))
        }
        if let exited = process.exitedAt { events.append(.exited(at: exited)) }
        return events
    }
}
