// swift-tools-version: 6.1
// What the framework integrations (LaunchProfHummingbird, LaunchProfVapor)
// share, in one place: a package of its own that depends on nothing but
// LaunchProf (by path), so that neither framework resolves the other.
//
//   LaunchProfServerSupport      HTTPDate (a response's Date header) and
//                                InheritedSocketError, for a server on a
//                                socket-activated process's socket
//                                (re-exported by both integrations)
//   LaunchProfSampleSupport      the samples' options (milliseconds from the
//                                environment) and their stand-in for launch work
//   LaunchProfServerTestSupport  the integrations' tests: running the
//                                repository's launchprof on a built sample
//
// Tests: cd Integrations/LaunchProfServerSupport && swift build --build-tests && swift test
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout's,
// whatever it was cloned as), not after its manifest's `name`.
let launchprofIdentity =
    Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "launchprof"

let package = Package(
    name: "LaunchProfServerSupport",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LaunchProfServerSupport", targets: ["LaunchProfServerSupport"]),
        .library(name: "LaunchProfSampleSupport", targets: ["LaunchProfSampleSupport"]),
        .library(name: "LaunchProfServerTestSupport", targets: ["LaunchProfServerTestSupport"]),
    ],
    dependencies: [
        .package(path: "../..")  // launchprof
    ],
    targets: [
        .target(
            name: "LaunchProfServerSupport",
            dependencies: [.product(name: "LaunchProf", package: launchprofIdentity)]
        ),
        .target(name: "LaunchProfSampleSupport"),
        .target(name: "LaunchProfServerTestSupport"),
        .testTarget(
            name: "LaunchProfServerSupportTests",
            dependencies: ["LaunchProfServerSupport"]
        ),
    ]
)
