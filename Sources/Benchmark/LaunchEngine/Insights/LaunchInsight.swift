import Foundation
import LaunchAnalysis
import LaunchSupport

/// One finding about a launch: a measured number, its cause, and what to
/// do about it (`launchprof explain`).
package struct LaunchInsight: Sendable, Equatable, Codable {
    /// What part of the launch it is about.
    package enum Area: String, Sendable, Equatable, Codable {
        /// Before `main`: exec, dynamic loading, the runtime, static initialisers.
        case preMain = "pre-main"
        /// The chain of work, on whatever threads, that led to launch complete.
        case criticalPath = "critical path"
        /// The launch was waiting rather than running.
        case waiting
        /// Work during the launch that the launch did not wait for.
        case otherThreads = "off the path"
        /// A cold launch's reads from disk.
        case coldFiles = "cold files"
    }

    /// What part of the launch it is about.
    package var area: Area
    /// The measured number, as a sentence.
    package var finding: String
    /// Why it costs what it costs.
    package var cause: String
    /// What to do about it.
    package var action: String
    /// Its size, for ordering (nanoseconds of the launch it concerns).
    package var nanoseconds: Double

    /// A finding.
    package init(area: Area, finding: String, cause: String, action: String, nanoseconds: Double) {
        self.area = area
        self.finding = finding
        self.cause = cause
        self.action = action
        self.nanoseconds = nanoseconds
    }
}
