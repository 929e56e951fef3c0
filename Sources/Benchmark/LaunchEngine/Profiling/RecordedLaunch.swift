import Foundation
import Glibc
import LaunchAnalysis
import LaunchSupport

/// What one recorded launch gave.
public struct RecordedLaunch: Sendable {
    /// The trace it wrote.
    public var trace: Trace
    /// The launch as observed: times, exit, resources.
    public var run: ObservedRun
    /// What the user must know of how it was recorded: samples that were
    /// lost because the sample file could not be written.
    public var notes: [String] = []

    /// A launch that wrote `trace`, observed as `run`.
    public init(trace: Trace, run: ObservedRun, notes: [String] = []) {
        self.trace = trace
        self.run = run
        self.notes = notes
    }
}
