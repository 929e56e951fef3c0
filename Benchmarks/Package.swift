// swift-tools-version: 6.1
// The tracer's benchmarks, as their own package (as apple/swift-log does), so
// that users of LaunchProf never resolve package-benchmark.
//
// Run from this directory: swift package --disable-sandbox benchmark
import PackageDescription

// SwiftPM names a path dependency after its directory (here the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "LaunchProfBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),  // launchprof
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The ring's hot path as it was at c92f6b1 (before block ownership),
        // measured beside the current one in the same iterations.
        .target(name: "CTracerBefore", path: "Sources/CTracerBefore"),
        .executableTarget(
            name: "TracerBenchmarks",
            dependencies: [
                "CTracerBefore",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LaunchProf", package: launchprofIdentity),
            ],
            path: "Benchmarks/TracerBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ]
)
