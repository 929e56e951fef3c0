/// Where a child's stdout and stderr go.
package enum OutputDisposition: Sendable, Equatable {
    /// /dev/null (the default: output costs time the launch did not ask for).
    case discard
    /// The harness's own stdout and stderr (`--show-output`).
    case inherit
    /// One file per run, both streams (`--output-dir`).
    case file(String)
    /// Standard output and standard error each to a file of its own (tools
    /// launchprof runs, such as llvm-symbolizer).
    case files(stdout: String, stderr: String)
}
