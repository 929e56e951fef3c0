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
}
