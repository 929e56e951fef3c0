// `import LaunchBenchmark` is the library's API: the engine's model and
// launches, the analysis of traces and profiles, the reports, the session
// over them, and the support module's value types that appear in them
// (ByteString, SystemCallError, ELFError); docs/architecture.md draws the
// modules. What only the CLI uses (ProgressLine, ANSIStyle) is `package`,
// and LaunchProfFiles (the atomic writer) is implementation: a caller that
// wants it imports it by name.
@_exported import LaunchAnalysis
@_exported import LaunchEngine
@_exported import LaunchReports
@_exported import LaunchSupport
