import Foundation
import Glibc
import LaunchAnalysis
import LaunchSupport

/// What one recorded launch gave.
package struct RecordedLaunch: Sendable {
    /// The trace it wrote.
    package var trace: Trace
    /// The launch as observed: times, exit, resources.
    package var run: ObservedRun
    /// What the user must know of how it was recorded: samples that were
    /// lost because the sample file could not be written.
    package var notes: [String] = []

    /// A launch that wrote `trace`, observed as `run`.
    package init(trace: Trace, run: ObservedRun, notes: [String] = []) {
        self.trace = trace
        self.run = run
        self.notes = notes
    }
}
