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
public enum VaporLaunch {
    /// Starts `application` as `execute()` does (boot, then the command
    /// its arguments name, `serve` by default), records launch complete
    /// (``LaunchTracker/recordLaunchComplete()``) once the server is
    /// accepting, and waits until it stops. Another command (`routes`, a
    /// migration) runs and returns without a launch complete: it started
    /// no server.
    ///
    /// - Throws: ``InheritedSocketUnsupported`` when the process was
    ///   socket-activated (``ActivatedSocket/inherited`` is not empty):
    ///   Vapor cannot accept on a socket it did not bind, and binding its
    ///   own would leave the connection that started it waiting forever.
    ///   Otherwise whatever Vapor's startup throws, reported to its logger.
    public static func execute(_ application: Application) async throws {
        let inherited = ActivatedSocket.inherited
        if !inherited.isEmpty {
            let error = InheritedSocketUnsupported(sockets: inherited)
            application.logger.critical("\(error)")
            throw error
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
