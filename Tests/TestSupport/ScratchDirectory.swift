import Foundation
import Glibc
import Synchronization
import Testing

/// A directory of the test's own, removed with everything in it when the
/// test is done (mkdtemp: mode 0700, a name no one can predict).
public final class ScratchDirectory: @unchecked Sendable {
    /// Its path.
    public let path: String

    /// Makes `base/prefix-XXXXXX` (the temporary directory by default; a
    /// disk-backed one such as /var/tmp where tmpfs would not do).
    public init(prefix: String = "launchprof-test", in base: String = NSTemporaryDirectory()) throws {
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template), "cannot create a temporary directory in \(base)")
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` in it.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The text of `name` in it.
    public func read(_ name: String) throws -> String { try String(contentsOfFile: file(name), encoding: .utf8) }

    /// Compiles `source` with `cc` into an executable named `name` in it.
    @discardableResult
    public func compile(_ name: String, _ source: String, flags: [String] = []) throws -> String {
        try CCompiler.compile(source, to: file(name), flags: flags)
    }
}
