import Hummingbird
import LaunchProf
import NIOCore

/// Launch complete for a Hummingbird server: when it is accepting
/// connections. Hummingbird's `runService()` blocks until the server stops,
/// so the place to record it is the application's `onServerRunning`, which
/// Hummingbird calls once the listening socket is bound:
///
/// ```swift
/// let app = Application(
///     router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)),
///     onServerRunning: HummingbirdLaunch.serverRunning)
/// try await app.runService()
/// ```
///
/// `launchprof run --ready tracer` then times the launch to that moment,
/// and systemd (`Type=notify`) hears `READY=1` then too.
public enum HummingbirdLaunch {
    /// Records launch complete (``LaunchTracker/recordLaunchComplete()``):
    /// pass it as `onServerRunning`, or call it from yours.
    @Sendable
    public static func serverRunning(_ channel: any Channel) async {
        LaunchTracker.recordLaunchComplete()
    }
}
