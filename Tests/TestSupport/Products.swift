import Foundation
import Glibc
import Synchronization
import Testing

/// Built products and scratch paths, for every test target.
public enum Products {
    /// Where SwiftPM put the products: beside the test binary.
    public static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of a built executable product, or a test failure saying to build it.
    public static func path(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` first")
        return path
    }

    /// A fresh path in the temporary directory (nothing is created).
    public static func temporaryPath(_ name: String) -> String {
        "\(NSTemporaryDirectory())/launchprof-e2e-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }
}
