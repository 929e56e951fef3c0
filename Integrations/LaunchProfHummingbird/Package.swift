// swift-tools-version: 6.1
// LaunchProf for Hummingbird 2 servers, as a package of its own so that
// neither LaunchProf's users nor the other integrations resolve Hummingbird.
//
//   LaunchProfHummingbird     launch complete when the server is accepting
//                             (Hummingbird's onServerRunning), and the
//                             server on a socket-activated process's
//                             inherited socket (runService(inheriting:))
//   hummingbird-launch-sample a Hummingbird server with an async main whose
//                             launch work is in signpost intervals
//
// Tests: cd Integrations/LaunchProfHummingbird && swift build --build-tests && swift test
// (they run the launchprof built at the repository's root).
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity =
    Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "LaunchProfHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LaunchProfHummingbird", targets: ["LaunchProfHummingbird"]),
        .executable(name: "hummingbird-launch-sample", targets: ["HummingbirdLaunchSample"]),
    ],
    dependencies: [
        .package(path: "../.."),  // launchprof
        .package(path: "../LaunchProfServerSupport"),  // what both framework integrations share
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own dependencies, nothing more to resolve: its
        // onServerRunning passes a NIO Channel, and a server on an inherited
        // socket is built from NIO's bootstrap, NIOExtras' quiescing helper
        // and a ServiceLifecycle service.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "LaunchProfHummingbird",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfServerSupport", package: "LaunchProfServerSupport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "HummingbirdLaunchSample",
            dependencies: [
                "LaunchProfHummingbird",
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "LaunchProfSampleSupport", package: "LaunchProfServerSupport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LaunchProfHummingbirdTests",
            dependencies: [
                "HummingbirdLaunchSample", "LaunchProfHummingbird",
                .product(name: "LaunchProfServerTestSupport", package: "LaunchProfServerSupport"),
            ]
        ),
    ]
)
