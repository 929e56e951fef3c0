/// What counts a launch's events (`--counts`, docs/counts.md).
public enum CountSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// perf_event_open counters the spawner opens on the launched tree
    /// (inherit, enable_on_exec), read at ready: hardware counters where the
    /// kernel has them, software counters everywhere.
    case perf = "perf_event_open"
    /// The launch under Valgrind's callgrind (`--trace-children=yes`):
    /// instructions executed in user space, to each process's exit.
    case callgrind

    /// The source a `--counts` value names: `perf` or `callgrind`.
    public init?(flag: String) {
        switch flag {
        case "perf", "perf_event_open": self = .perf
        case "callgrind", "valgrind": self = .callgrind
        default: return nil
        }
    }
}
