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

    /// For a run that never became ready: whether anything was sent to the
    /// socket, by whom, and why it did not count — nothing at all (and why
    /// that may be), messages of the run's own without READY=1, or the
    /// ignored senders (``ignored``).
    var unreadyAccount: String {
        var parts: [String] = []
        if socket.received == 0 {
            let reach =
                socket.everyoneCanReach
                ? "which every user may send to"
                : "in a directory other users cannot enter (no candidate of $XDG_RUNTIME_DIR, $TMPDIR, /tmp can be "
                    + "entered by every user): a program that changes user cannot reach it"
            parts.append(
                "nothing was sent to the notify socket (NOTIFY_SOCKET=\(socket.address), \(reach)): the program may not "
                    + "speak sd_notify, may not have got as far as READY=1, or something on the way dropped NOTIFY_SOCKET "
                    + "from its environment (sudo and env -i do)")
        }
        if socket.accepted > 0 {
            parts.append(
                "the run's processes sent \(socket.accepted) message(s) on the notify socket, none with READY=1 (the last: "
                    + "\(NotifyRefusal.summary(of: socket.lastAccepted)))")
        }
        parts += ignored
        let named = socket.accepted + socket.refusals.count
        if socket.received > named, !socket.refusals.isEmpty {
            parts.append("\(socket.received - named) more message(s) from ignored senders")
        }
        return parts.joined(separator: "; ")
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
