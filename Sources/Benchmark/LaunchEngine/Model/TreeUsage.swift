/// The resources of a run's whole process tree: CPU, faults and context
/// switches summed over every process; max RSS is the largest single
/// process's peak (``largest`` says which).
package struct TreeUsage: Sendable, Equatable, Codable {
    /// Sums over the tree; `maxRSSBytes` is the largest one process reached.
    package var usage: ResourceUsage
    /// Processes launchprof's spawner reaped: the launched process, and every
    /// descendant orphaned to it or still running when the run ended.
    /// Children their own parent waited for are in that parent's figures
    /// (and so in the sums) but not in this count.
    package var processes: Int
    /// The process with the largest max RSS.
    package var largest: LargestProcess?
    /// Processes that could not be killed and reaped within five seconds.
    package var unreaped: Int

    /// Usage of a process tree.
    package init(usage: ResourceUsage = ResourceUsage(), processes: Int = 0, largest: LargestProcess? = nil, unreaped: Int = 0) {
        self.usage = usage
        self.processes = processes
        self.largest = largest
        self.unreaped = unreaped
    }
}
