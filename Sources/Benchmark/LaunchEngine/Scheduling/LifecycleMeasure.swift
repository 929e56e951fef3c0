import Glibc
import LaunchSupport

/// A lifecycle phase `launchprof run --measure` times after ready.
package enum LifecycleMeasure: String, Sendable, Equatable, Codable, CaseIterable {
    /// SIGTSTP, wait until stopped (time to suspend), SIGCONT, wait for the
    /// program's `LP1 resumed` record (time to resume). Needs LaunchProf's
    /// Lifecycle in the program.
    case resume
    /// SIGTERM, wait for the exit (time to shutdown). Any program.
    case shutdown
}
