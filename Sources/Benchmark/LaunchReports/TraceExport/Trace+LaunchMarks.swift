import LaunchAnalysis

extension Trace {
    /// Whether the ring kept LaunchTracker's "main" milestone. When it did,
    /// exporters show the event, not the header's time: the two are separate
    /// clock reads a few microseconds apart, and showing both would double
    /// the mark.
    var hasMainEvent: Bool {
        events.contains { $0.kind == .milestone && $0.categoryIndex == 0 && $0.name == "main" }
    }

    /// Whether the ring kept the launch-complete event (see ``hasMainEvent``).
    var hasLaunchCompleteEvent: Bool {
        events.contains { $0.kind == .launchComplete }
    }
}
