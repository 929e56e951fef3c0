// `import LaunchBenchmark` is the library's API. Each module below keeps
// `public` only what a caller needs (targets, probes, settings, budgets, the
// session, a gate, the results document and outcome: 78 types, listed in
// docs/architecture.md); the rest is `package`, visible to the CLI and the
// tests of this package through these re-exports and to no one else.
// LaunchAnalysis and LaunchReports have no public type: re-exported for the
// package's own targets. LaunchProfFiles (the atomic writer) is
// implementation: a caller that wants it imports it by name.
@_exported import LaunchAnalysis
@_exported import LaunchEngine
@_exported import LaunchReports
@_exported import LaunchSupport
