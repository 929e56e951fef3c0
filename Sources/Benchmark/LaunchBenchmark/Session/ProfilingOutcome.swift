import Foundation
import LaunchAnalysis
import LaunchEngine

/// What profiling gave: each profiled target's profile (in plan order),
/// the targets that could not be profiled, and whether an interrupt ended it.
public struct ProfilingOutcome: Sendable {
    /// Each profiled target's profile and files, in plan order.
    package var profiles: [(target: String, profiled: ProfileRecorder.Profiled)] = []
    /// Targets that could not be profiled.
    public var failed: [String] { errors.map(\.target) }
    /// An interrupt (Ctrl-C or a cancelled task) stopped profiling; `profiles` holds what was done.
    public var interrupted = false
    /// Why each failed target failed, and the interrupt, as messages.
    public var problems: [String] = []
    /// The error of each target that could not be profiled, in plan order
    /// (``failed`` names them; `launchprof profile` exits with its status).
    package var errors: [(target: String, error: ProfileError)] = []

    /// For the results document: what was sampled and where the files are.
    public var records: [ProfileRecord] {
        profiles.map { target, profiled in
            var record = ProfileRecord(
                target: target, profile: profiled.profile, flameGraph: profiled.outputs.flameGraph,
                speedscope: profiled.outputs.speedscope, folded: profiled.outputs.folded)
            record.pprof = profiled.outputs.pprof
            return record
        }
    }

    /// For the HTML report's flame graphs.
    package var byTarget: [String: SymbolizedProfile] {
        Dictionary(profiles.map { ($0.target, $0.profiled.profile) }, uniquingKeysWith: { first, _ in first })
    }
}
