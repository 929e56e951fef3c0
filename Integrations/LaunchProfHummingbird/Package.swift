// swift-tools-version: 6.1
// LaunchProf for Hummingbird 2 servers, as a package of its own so that
// neither LaunchProf's users nor the other integrations resolve Hummingbird.
//
//   LaunchProfHummingbird     launch complete when the server is accepting
//                             (Hummingbird's onServerRunning)
//   hummingbird-launch-sample a Hummingbird server with an async main whose
//                             launch work is in signpost intervals
//
// Tests: cd Integrations/Hummingbird && swift build && swift test
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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own: its onServerRunning passes a NIO Channel.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .target(
            name: "LaunchProfHummingbird",
            dependencies: [
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "HummingbirdLaunchSample",
            dependencies: [
                "LaunchProfHummingbird",
                .product(name: "LaunchProf", package: launchprofIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LaunchProfHummingbirdTests",
            dependencies: ["HummingbirdLaunchSample"]
        ),
    ]
)
