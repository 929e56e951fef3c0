import LaunchProf
import Vapor

/// Launch complete for a Vapor 4 server: when it is accepting connections.
///
/// Vapor's lifecycle handlers are too early for it: `Application.startup()`
/// runs every `didBoot` before the serve command starts the server, so at
/// `didBoot` nothing is listening yet. The server is accepting once
/// `startup()` has returned with the serve command running (its
/// `HTTPServer.start` binds before it returns). `execute(_:)` is Vapor's
/// `execute()` with launch complete recorded there:
///
/// ```swift
/// let app = try await Application.make(env)
/// try await configure(app)
/// try await VaporLaunch.execute(app)   // instead of app.execute()
/// try await app.asyncShutdown()
/// ```
///
/// `launchprof run --ready tracer` then times the launch to that moment,
/// and systemd (`Type=notify`) hears `READY=1` then too.
///
/// Socket-activated (systemd's `ListenStream=`, `launchprof run
/// --activate`), the same line serves on the socket the process was
/// started with: ``ActivatedSocket/inherited`` is not empty, so `execute`
/// replaces the application's server (`app.servers.use`) with one on that
/// socket before it starts, and the connection that started the process is
/// answered by the application's routes. Without an inherited socket,
/// Vapor's own server is used as configured.
public enum VaporLaunch {
    /// Starts `application` as `execute()` does (boot, then the command
    /// its arguments name, `serve` by default), records launch complete
    /// (``LaunchTracker/recordLaunchComplete()``) once the server is
    /// accepting, and waits until it stops. Another command (`routes`, a
    /// migration) runs and returns without a launch complete: it started
    /// no server.
    ///
    /// When the process was socket-activated, the server is one on the
    /// first inherited socket (HTTP/1.1 only, request bodies up to
    /// `app.routes.defaultMaxBodySize`, no protocol upgrades); the address
    /// the serve command is given (`--port`, `--bind`) is not bound.
    ///
    /// - Throws: ``InheritedSocketError`` when the inherited descriptor
    ///   cannot be accepted on (it is not a listening socket). Otherwise
    ///   whatever Vapor's startup throws. Either is reported to the
    ///   application's logger too.
    public static func execute(_ application: Application) async throws {
        if let socket = ActivatedSocket.inherited.first {
            let server = InheritedSocketServer(application: application, socket: socket)
            application.servers.use { _ in server }
        }
        do {
            try await application.startup()
            guard let running = application.running else { return }
            LaunchTracker.recordLaunchComplete()
            try await running.onStop.get()
        } catch {
            application.logger.report(error: error)
            throw error
        }
    }
}
