// swift-tools-version: 6.2
// LaunchProf's integrations with the Swift server ecosystem's observability
// APIs, as a package of their own (as Benchmarks/ is), so that users of
// LaunchProf alone never resolve swift-distributed-tracing or swift-metrics.
//
//   LaunchProfTracing  the launch as spans, through swift-distributed-tracing
//   LaunchProfMetrics  launch times, deferred tasks and prewarm outcomes,
//                      through swift-metrics
//
// A program that bootstraps swift-otel (or swift-prometheus) exports them
// with no further code. Tests: cd Integrations && swift test
import PackageDescription

// SwiftPM names a path dependency after its directory (here the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "LaunchProfIntegrations",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LaunchProfTracing", targets: ["LaunchProfTracing"]),
        .library(name: "LaunchProfMetrics", targets: ["LaunchProfMetrics"]),
        .executable(name: "launch-tracing-sample", targets: ["LaunchTracingSample"]),
    ],
    dependencies: [
        .package(path: "../"),  // launchprof
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "LaunchProfTracing",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "LaunchProfMetrics",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfDeferred", package: launchprofIdentity),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // A launch like lp-sample-app's, exported through the in-memory tracer
        // and the metrics test kit and printed, for the tests to check.
        .executableTarget(
            name: "LaunchTracingSample",
            dependencies: [
                "LaunchProfTracing", "LaunchProfMetrics",
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfDeferred", package: launchprofIdentity),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "LaunchProfIntegrationTests",
            dependencies: [
                "LaunchProfTracing", "LaunchProfMetrics", "LaunchTracingSample",
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ]
)
