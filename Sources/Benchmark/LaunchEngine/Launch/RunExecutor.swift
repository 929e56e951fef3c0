import Glibc
import LaunchAnalysis

/// Performs one launch. The real one spawns a process
/// (`ProcessExecutor`); tests may script one to check scheduling
/// deterministically, as hyperfine's mock executor does.
package protocol RunExecutor {
    /// Launches `context.target` once and returns what was observed. A target
    /// that cannot be started throws `LaunchError`.
    func execute(_ context: RunContext) throws -> ObservedRun
}
