// `import LaunchBenchmark` is the whole library: the engine's model and
// launches, the analysis of traces and profiles, the reports, and the
// session over them (docs/architecture.md draws the modules).
@_exported import LaunchAnalysis
@_exported import LaunchEngine
@_exported import LaunchProfFiles
@_exported import LaunchReports
@_exported import LaunchSupport
