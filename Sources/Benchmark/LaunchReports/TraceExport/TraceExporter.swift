import LaunchAnalysis

/// Turns a `Trace` into one output format.
package protocol TraceExporter: Sendable {
    /// The whole output, ready to write.
    func export(_ trace: Trace) -> String
}
