// swift-tools-version:6.1
// What sampling costs a launch, kernel against in-process, measured in the
// same run (Scripts/compare/compare-sampling-overhead.sh builds and runs it).
import PackageDescription

let package = Package(
    name: "sampling-cost",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "launchprof", path: "../../..")],
    targets: [
        .executableTarget(
            name: "sampling-cost",
            dependencies: [.product(name: "LaunchBenchmark", package: "launchprof")]
        )
    ]
)
