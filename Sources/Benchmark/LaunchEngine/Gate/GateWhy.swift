import LaunchSupport

/// Why a regressed gate's head is slower: the same attribution `run`
/// makes against a baseline (the launch's phases, the signpost intervals on
/// its path with their time on and off CPU, time before main, libraries
/// added or dropped, the loader's time per library), made from the gate's
/// own runs of both sides plus traced runs of both, side by side in ABBA
/// order after the verdict (docs/gate.md, "The Why").
package struct GateWhy: Sendable, Codable, Equatable {
    /// The traced runs of each side added after the verdict (0 when the
    /// program does not report to a LaunchProf tracer: tracing would add
    /// nothing to the gate's own runs).
    package var tracedRuns: Int
    /// The audited launches of each side behind `LaunchAttribution/loader`
    /// (0 when not audited).
    package var auditedLaunches: Int
    /// The attribution; nil when a side has no successful run.
    package var attribution: LaunchAttribution?
    /// What limited it: a traced run that failed, an interrupt, a program
    /// that could not be audited. Empty when nothing did.
    package var notes: [String]

    /// The Why of `attribution`.
    package init(tracedRuns: Int, auditedLaunches: Int, attribution: LaunchAttribution?, notes: [String] = []) {
        self.tracedRuns = tracedRuns
        self.auditedLaunches = auditedLaunches
        self.attribution = attribution
        self.notes = notes
    }

    /// The lines a report prints: the attribution's summary, then the notes.
    package var lines: [String] {
        let said =
            attribution?.summaryLines ?? ["no attribution: a side has no successful run"]
        return said + notes.map { "note: \($0)" }
    }
}
