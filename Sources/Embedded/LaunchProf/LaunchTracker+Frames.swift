extension LaunchTracker {
    /// Marks the moment the program's first frame is on screen: the
    /// "first frame" milestone, the analog of Android's time to initial
    /// display. Call it from the toolkit's first draw callback (GTK's
    /// `GdkFrameClock` `after-paint`, Qt's `QWindow::exposeEvent` after the
    /// first `QBackingStore::flush`, SDL's first `SDL_RenderPresent`, a
    /// Wayland surface's first `wl_surface.frame` done); only the first call
    /// counts. `launchprof run --ready frame` measures the same moment from
    /// outside (X DAMAGE); this one is what the program knows.
    public static func recordFirstFrame() {
        guard
            frames.withLock({ state in
                defer { state.firstFrame = true }
                return !state.firstFrame
            })
        else { return }
        recordMilestone("first frame")
    }

    /// Marks the moment the program is fully drawn and usable by its own
    /// notion (content loaded, not just a placeholder frame), the analog of
    /// Android's `reportFullyDrawn`: the "fully drawn" milestone. Only the
    /// first call counts. It does not end the launch: call
    /// ``recordLaunchComplete()`` when the program should count as ready.
    public static func recordFullyDrawn() {
        guard
            frames.withLock({ state in
                defer { state.fullyDrawn = true }
                return !state.fullyDrawn
            })
        else { return }
        recordMilestone("fully drawn")
    }

    /// Which of the two were recorded (a lock, not Synchronization: see Locked).
    private static let frames = Locked((firstFrame: false, fullyDrawn: false))
}
