// `import LaunchBenchmark` is the library's API: the engine's model and
// launches, the analysis of traces and profiles, the reports, and the
// session over them (docs/architecture.md draws the modules). The support
// modules under them (LaunchSupport: units, system calls, terminal text;
// LaunchProfFiles: the atomic writer) are implementation, not API: a caller
// that wants them imports them by name.
@_exported import LaunchAnalysis
@_exported import LaunchEngine
@_exported import LaunchReports
