// swift-tools-version: 6.1
// LaunchProf for Vapor 4 servers, as a package of its own so that neither
// LaunchProf's users nor the other integrations resolve Vapor.
//
//   LaunchProfVapor      launch complete when the server is accepting
//                        (VaporLaunch.execute: after Vapor's serve command
//                        has bound the socket, not at didBoot, which is
//                        before it); socket-activated, it serves on
//                        the inherited socket (a Vapor Server built on
//                        NIO's withBoundSocket, NIOHTTP1 and NIOExtras'
//                        quiescing helper)
//   vapor-launch-sample  a Vapor server with an async main whose launch
//                        work is in signpost intervals
//
// Tests: cd Integrations/LaunchProfVapor && swift build --build-tests && swift test
// (they run the launchprof built at the repository's root).
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity =
    Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "LaunchProfVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LaunchProfVapor", targets: ["LaunchProfVapor"]),
        .executable(name: "vapor-launch-sample", targets: ["VaporLaunchSample"]),
    ],
    dependencies: [
        .package(path: "../.."),  // launchprof
        .package(path: "../LaunchProfServerSupport"),  // what both framework integrations share
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // Vapor's own dependencies, nothing more to resolve: the server on an
        // inherited socket is built from NIO's bootstrap and HTTP/1 pipeline
        // and NIOExtras' quiescing helper.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        .target(
            name: "LaunchProfVapor",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfServerSupport", package: "LaunchProfServerSupport"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ]
        ),
        .executableTarget(
            name: "VaporLaunchSample",
            dependencies: [
                "LaunchProfVapor",
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfSampleSupport", package: "LaunchProfServerSupport"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .testTarget(
            name: "LaunchProfVaporTests",
            dependencies: [
                "VaporLaunchSample", "LaunchProfVapor",
                .product(name: "LaunchProfServerTestSupport", package: "LaunchProfServerSupport"),
            ]
        ),
    ]
)
