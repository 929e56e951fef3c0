import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// `launchprof run --ready notify` as a user runs it: a service started as
/// root that becomes another user, and a run that never hears READY=1.
@Suite("launchprof run --ready notify")
struct NotifyReadyTests {
    @Test("a service that drops to another user (setpriv, as a root init script starts one) reaches ready in every run")
    func otherUserService() throws {
        let notify: String? = ["/usr/bin/systemd-notify", "/bin/systemd-notify"].first { (path: String) in access(path, X_OK) == 0 }
        guard geteuid() == 0, let notify, access("/usr/bin/setpriv", X_OK) == 0 else {
            print("skipped: needs root, setpriv and systemd-notify to start a program as uid 65534")
            return
        }
        let script = "test \"$(id -u)\" = 65534 || exit 1; exec \(notify) --ready --pid=$$"
        let run = try launchprof(
            [
                "run", "--ready", "notify", "-r", "3", "-w", "0", "--timeout", "30", "--", "/usr/bin/setpriv",
                "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script,
            ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("timed out"), "\(run.standardError)")
    }

    @Test("a notify run that times out says that nothing was sent to the socket, and where it was")
    func timeoutSaysNothingWasSent() throws {
        let run = try launchprof(["run", "--ready", "notify", "-r", "1", "-w", "0", "--timeout", "1", "--", "/bin/sleep", "30"])
        #expect(run.status != 0)
        let said = run.standardError + run.standardOutput
        #expect(said.contains("timed out before it was ready"), "\(said)")
        #expect(said.contains("nothing was sent to the notify socket (NOTIFY_SOCKET="), "\(said)")
    }
}
