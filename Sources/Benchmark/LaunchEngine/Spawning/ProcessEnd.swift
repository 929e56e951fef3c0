import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// How a run ended, with the resources it used: the launched process's own
/// and its whole tree's.
package struct ProcessEnd: Sendable, Equatable {
    /// `.exited` or `.signaled`, as the kernel reported it.
    package var status: ExitStatus
    /// The launched process's own wait4 figures (they include the children
    /// it waited for itself).
    package var usage: ResourceUsage
    /// Every process of the run's tree.
    package var tree: TreeUsage
    /// A counted spawn's counters (`--counts perf`); nil otherwise.
    package var counters: CounterReading? = nil
    /// The CPU the launched process last ran on (when it was marked ready,
    /// else at its exit); nil when the spawner could not read it.
    package var cpu: Int? = nil
}
