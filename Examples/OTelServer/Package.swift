// swift-tools-version: 6.2
// A server that ships its launch to an OpenTelemetry collector: it bootstraps
// swift-otel (OTLP/HTTP only, no gRPC) and registers LaunchProfTracing and
// LaunchProfMetrics, so its launch span, interval spans and launch metrics
// reach any OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, default
// http://localhost:4318).
//
// A package of its own: swift-otel brings SwiftNIO, async-http-client and
// swift-protobuf, a first build of 7 to 10 minutes on 2 cores, which neither
// LaunchProf's users nor the Integrations package should pay.
// Scripts/checks/check-otel.sh builds it and checks what a real OTLP/HTTP receiver gets.
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity = Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "OTelServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),  // launchprof
        .package(path: "../../Integrations"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "OTelServer",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfTracing", package: "integrations"),
                .product(name: "LaunchProfMetrics", package: "integrations"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        )
    ]
)
