import Hummingbird
import HummingbirdCore
import LaunchProf
import ServiceLifecycle
import UnixSignals

extension ApplicationProtocol {
    /// Runs the application as `runService()` does, on `socket` when there
    /// is one: the listening socket systemd's socket activation (or
    /// `launchprof run --activate`) started this process with, whose first
    /// connection is already waiting. Without one, the server binds its
    /// configuration's address as usual. One line serves both:
    ///
    /// ```swift
    /// try await app.runService(inheriting: ActivatedSocket.inherited.first)
    /// ```
    ///
    /// On the socket, the server is HTTP/1.1 with `http1` (the
    /// application's `server` builder cannot be used: HummingbirdCore
    /// keeps the channel it builds package-internal), and answers as
    /// Hummingbird does: the same responder, request context, `Date` and
    /// `Server` headers, services, processes before the server starts and
    /// `onServerRunning`, which is when it accepts.
    public func runService(
        inheriting socket: ActivatedSocket?,
        http1: HTTP1Channel.Configuration = .init(),
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]
    ) async throws {
        guard let socket else { return try await runService(gracefulShutdownSignals: gracefulShutdownSignals) }
        let application = InheritedSocketApplication(base: self, socket: socket, http1: http1)
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        try await group.run()
    }
}
