import Glibc
import LaunchSupport

/// `--ready notify`: the private sd_notify socket, ready at the first
/// `READY=1` from the launched process or one of its descendants. Messages
/// from other senders are not counted, and the run says which arrived and
/// why each was ignored.
final class NotifyChannel: RunEventSource {
    private let socket: NotifySocket
    private let process: LaunchedProcess
    private var fired = false

    init(_ socket: NotifySocket, process: LaunchedProcess) {
        self.socket = socket
        self.process = process
    }

    var pollRequest: pollfd? { fired ? nil : pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0) }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard revents != 0, !fired else { return [] }
        let process = self.process
        guard socket.drainReady(accepting: { process.isInTree($0) }) else { return [] }
        fired = true
        return [.ready(at: monotonicNanoseconds())]
    }

    /// One sentence per ignored sender: who, what it sent, and why it did
    /// not count.
    var ignored: [String] {
        socket.refusals.map { refusal in
            let sender = refusal.pid > 0 ? "pid \(refusal.pid) (\(refusal.command))" : "a sender without credentials"
            return "ignored \(refusal.summary) on the notify socket from \(sender): \(reason(refusal.pid))"
        }
    }

    private func reason(_ sender: Int32) -> String {
        if sender <= 0 { return "the message carries no sender pid, so it cannot be tied to the run" }
        if sender == process.service.pid {
            return "its credentials name launchprof's spawner, the launched program's parent, as systemd-notify does by "
                + "default (it sends its parent's pid); systemd with NotifyAccess=main ignores it too. Let the program "
                + "send with its own pid, e.g. `sh -c 'exec systemd-notify --ready --pid=$$'`"
        }
        return "it is not the launched process (pid \(process.pid)) nor one of its descendants"
    }
}
