import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchEngine

/// `--ready notify` for a service that becomes another user (runuser,
/// setpriv, a daemon dropping privileges): the socket is reachable by every
/// user, cannot be replaced by any other, readiness is still decided by the
/// sender's credentials, and a run that never became ready says what
/// arrived and why it did not count.
@Suite("The notify socket: other users, and runs that never became ready")
struct NotifyOtherUserTests {
    static let systemdNotify: String? = ["/usr/bin/systemd-notify", "/bin/systemd-notify"].first { (path: String) in access(path, X_OK) == 0
    }

    /// Why a test that needs another user cannot run here, or nil.
    static var otherUserUnavailable: String? {
        if geteuid() != 0 { return "needs root to start a program as another user (uid 65534)" }
        if systemdNotify == nil { return "systemd-notify is not installed (Scripts/install-deps.sh installs systemd)" }
        if getpwuid(65534) == nil { return "no user with uid 65534 (nobody)" }
        return nil
    }

    @Test(
        "a program that drops to another user (setpriv, runuser) and sends READY=1 reaches ready",
        arguments: [
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
            ["/usr/sbin/runuser", "-u", "nobody", "--"],
        ])
    func otherUserReachesReady(wrapper: [String]) throws {
        if let reason = Self.otherUserUnavailable {
            print("skipped: \(reason)")
            return
        }
        guard access(wrapper[0], X_OK) == 0, getpwnam("nobody")?.pointee.pw_uid == 65534 else {
            print("skipped: \(wrapper[0]) is not installed, or nobody is not uid 65534")
            return
        }
        // Exits 1 before sending unless it really runs as uid 65534.
        let script = "test \"$(id -u)\" = 65534 || exit 1; exec \(Self.systemdNotify!) --ready --pid=$$"
        let run = try launchOnce(
            LaunchTarget(name: "other user", arguments: wrapper + ["/bin/sh", "-c", script], ready: .notify),
            timeout: .seconds(30))
        #expect(run.failure == nil, "\(run.failure ?? "")")
        #expect(run.wallToReady != nil)
    }

    @Test("another user can send to the socket but not replace, move or add to it; its READY=1 from outside the run is refused")
    func otherUserCannotReplaceSocket() throws {
        if let reason = Self.otherUserUnavailable {
            print("skipped: \(reason)")
            return
        }
        let scratch = try ScratchDirectory()
        let socketFile = scratch.file("socket")
        let target = LaunchTarget(
            name: "waits", arguments: ["/bin/sh", "-c", "printf %s \"$NOTIFY_SOCKET\" > \(socketFile); exec sleep 30"],
            ready: .notify)
        let process = try Spawner().spawn(target, options: .forProbe(.notify, output: .discard))
        defer { _ = try? process.reap() }
        var address = ""
        for _ in 0..<3000 where address.isEmpty {
            address = (try? String(contentsOfFile: socketFile, encoding: .utf8)) ?? ""
            usleep(10_000)
        }
        try #require(address.hasPrefix("/"))
        let directory = String(address[..<(address.lastIndex(of: "/") ?? address.endIndex)])
        var before = stat()
        var folder = stat()
        try #require(lstat(address, &before) == 0 && stat(directory, &folder) == 0)
        #expect(before.st_mode & S_IFMT == S_IFSOCK && before.st_mode & 0o7777 == 0o622)
        #expect(folder.st_mode & 0o7777 == 0o711 && folder.st_uid == geteuid())
        // Each of these must fail for uid 65534: unlink, rename, a symlink or a file beside it, listing.
        let attempts = [
            "rm -f '\(address)'", "mv '\(address)' '\(directory)/moved'", "ln -s /etc/passwd '\(directory)/link'",
            ": > '\(directory)/file'", "ls '\(directory)'",
        ]
        for attempt in attempts {
            let tried = try CommandRun.run(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", attempt])
            #expect(tried.status != 0, "uid 65534 could: \(attempt)")
        }
        var after = stat()
        #expect(lstat(address, &after) == 0 && after.st_ino == before.st_ino, "the socket is the one launchprof bound")
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(entries == ["notify"], "\(entries)")
        // uid 65534 outside the run can send (the socket lets every user), but its READY=1 does not count.
        let impostor = Process()
        impostor.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        impostor.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "NOTIFY_SOCKET=\(address)", "/bin/sh", "-c",
            "exec \(Self.systemdNotify!) --ready --pid=$$",
        ]
        try impostor.run()
        let run = try RunLoop(process: process, settings: RunSettings(probe: .notify, timeout: .seconds(3))).run()
        impostor.waitUntilExit()
        #expect(impostor.terminationStatus == 0, "uid 65534 could not send to the notify socket")
        #expect(run.exit == .timedOut)
        let failure = try #require(run.failure)
        #expect(failure.contains("timed out before it was ready"), "\(failure)")
        #expect(failure.contains("ignored READY=1 on the notify socket from pid \(impostor.processIdentifier)"), "\(failure)")
        #expect(failure.contains("not the launched process"), "\(failure)")
    }

    @Test("a notify run that times out or fails with nothing sent says that nothing was sent, and where the socket was")
    func nothingSentIsSaid() throws {
        let run = try launchOnce(
            LaunchTarget(name: "silent", arguments: ["/bin/sleep", "30"], ready: .notify), timeout: .seconds(1))
        #expect(run.exit == .timedOut)
        let failure = try #require(run.failure)
        #expect(failure.contains("timed out before it was ready"), "\(failure)")
        #expect(failure.contains("nothing was sent to the notify socket (NOTIFY_SOCKET=/"), "\(failure)")
        // A program that fails before READY=1 (one that could not reach the socket exits so) says it too.
        let failed = try launchOnce(
            LaunchTarget(name: "fails", arguments: ["/bin/sh", "-c", "exit 4"], ready: .notify), timeout: .seconds(30))
        let said = try #require(failed.failure)
        #expect(said.hasPrefix("exited with status 4; nothing was sent to the notify socket"), "\(said)")
    }

    @Test("messages of the run's own without READY=1 are counted and the last one named")
    func ownMessagesWithoutReady() throws {
        let scratch = try ScratchDirectory()
        let sender = try scratch.compile("sender", HostileSource.notifySender)
        let run = try launchOnce(
            LaunchTarget(
                name: "status only", arguments: ["/bin/sh", "-c", "\(sender) \"$NOTIFY_SOCKET\" STATUS=warming; exec sleep 30"],
                ready: .notify), timeout: .seconds(3))
        #expect(run.exit == .timedOut)
        let failure = try #require(run.failure)
        #expect(failure.contains("the run's processes sent 1 message(s)"), "\(failure)")
        #expect(failure.contains("none with READY=1 (the last: STATUS=warming)"), "\(failure)")
        #expect(!failure.contains("nothing was sent"), "\(failure)")
    }

    @Test("the socket's base is one every user can enter: a 0700 directory is passed over")
    func baseEveryoneCanEnter() throws {
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o700)
        #expect(!NotifySocket.everyoneCanEnter(scratch.path))
        #expect(NotifySocket.everyoneCanEnter("/tmp"))
        #expect(NotifySocket.base(among: [scratch.path, "", "/tmp"]) == ("/tmp", true))
        #expect(NotifySocket.base(among: [scratch.path]) == (scratch.path, false))
        #expect(NotifySocket.base(among: ["/no/such/directory"]) == ("/tmp", true))
    }
}
