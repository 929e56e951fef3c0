import Foundation
import Glibc
import LaunchProfCodable
import LaunchProfLifecycle
import LaunchProfTestSupport
import Testing

/// StateStore in-process: real files in a temporary directory.
@Suite("StateStore")
struct StateStoreTests {
    @Test("bytes saved are restored with their kind, version and a small age")
    func roundTrip() throws {
        let directory = try ScratchDirectory()
        let store = try StateStore(appName: "app", appVersion: "3.1", directory: directory.path)
        let payload: [UInt8] = Array(0...255) + Array("tail".utf8)
        try store.save(payload, kind: .quick)
        let restored = store.restore(.quick)
        let snapshot = try #require(restored.snapshot)
        #expect(snapshot.bytes == payload)
        #expect(snapshot.kind == .quick)
        #expect(snapshot.appVersion == "3.1")
        #expect(snapshot.age < .seconds(60))
        #expect(!snapshot.savedAtCleanShutdown)
        #expect(restored.discarded == nil)
        #expect(store.restore(.complete).snapshot == nil)
    }

    @Test("a compatibility rule can accept other versions")
    func compatibleVersions() throws {
        let directory = try ScratchDirectory()
        try StateStore(appName: "app", appVersion: "1.2", directory: directory.path).save([1, 2, 3])
        let newer = try StateStore(appName: "app", appVersion: "1.3", directory: directory.path) { $0.hasPrefix("1.") }
        #expect(newer.restore().snapshot?.bytes == [1, 2, 3])
        let major = try StateStore(appName: "app", appVersion: "2.0", directory: directory.path) { $0.hasPrefix("2.") }
        #expect(major.restore().discarded?.description.contains("saved by app version '1.2', not compatible with '2.0'") == true)
    }

    @Test("names that are not one path component are refused with a clear error", arguments: ["", "a/b", ".", ".."])
    func badNames(name: String) throws {
        let directory = try ScratchDirectory()
        #expect {
            try StateStore(appName: name, appVersion: "1", directory: directory.path)
        } throws: { error in
            (error as? StateStoreError)?.description.hasPrefix("invalid state store name '\(name)'") == true
        }
    }

    @Test("STATE_DIRECTORY, then XDG_STATE_HOME/<app>, then HOME/.local/state/<app>")
    func directories() throws {
        let directory = try ScratchDirectory()
        let script = """
            STATE_DIRECTORY=\(directory.path)/systemd:/other XDG_STATE_HOME=\(directory.path)/xdg HOME=\(directory.path)/home "$0" --print-state-dir && \
            env -u STATE_DIRECTORY XDG_STATE_HOME=\(directory.path)/xdg HOME=\(directory.path)/home "$0" --print-state-dir && \
            env -u STATE_DIRECTORY XDG_STATE_HOME=relative HOME=\(directory.path)/home "$0" --print-state-dir
            """
        let result = try runShell(script, Products.path("lp-sample-lifecycle"))
        #expect(
            result == [
                "\(directory.path)/systemd", "\(directory.path)/xdg/lp-sample-lifecycle",
                "\(directory.path)/home/.local/state/lp-sample-lifecycle",
            ])
        var status = stat()
        #expect(stat("\(directory.path)/home/.local/state/lp-sample-lifecycle", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
    }

    @Test("a directory that cannot be created is named in the error")
    func uncreatable() throws {
        let directory = try ScratchDirectory()
        let file = directory.path + "/file"
        try Data().write(to: URL(fileURLWithPath: file))
        #expect {
            try StateStore(appName: "app", appVersion: "1", directory: file + "/sub")
        } throws: { error in
            let text = (error as? StateStoreError)?.description ?? ""
            return text.hasPrefix("cannot create state directory '") && text.hasSuffix("/file/sub': Not a directory")
        }
    }

    @Test("Codable values round-trip through LaunchProfCodable")
    func codable() throws {
        struct Model: Codable, Equatable {
            var path: [String]
            var tab: Int
        }
        let directory = try ScratchDirectory()
        let store = try StateStore(appName: "app", appVersion: "1", directory: directory.path)
        try store.save(encoding: Model(path: ["a", "b"], tab: 2), cleanShutdown: true)
        let restored = store.restore(decoding: Model.self)
        #expect(restored.value == Model(path: ["a", "b"], tab: 2))
        #expect(restored.restoration.snapshot?.savedAtCleanShutdown == true)
        try store.save([1, 2, 3])
        let broken = store.restore(decoding: Model.self)
        #expect(broken.value == nil)
        #expect(broken.decodingError != nil)
    }
}

/// Runs `script` with `sh -c script argument0`; its stdout lines.
func runShell(_ script: String, _ argument0: String) throws -> [String] {
    try CommandRun.run("/bin/sh", ["-c", script, argument0]).standardOutput.split(separator: "\n").map(String.init)
}

/// Saving under contention, and who may read what is saved.
@Suite("StateStore: concurrent saves and file modes")
struct StateStoreSafetyTests {
    @Test("64 threads saving one kind at once leave one whole snapshot, of one of them, mode 0600")
    func concurrentSaves() throws {
        let directory = try ScratchDirectory()
        let store = try StateStore(appName: "app", appVersion: "1", directory: directory.path)
        // Each thread's payload is its number repeated, large enough that
        // interleaved writes into one file would show.
        let size = 256 * 1024
        runThreads(64) { number in
            let payload = [UInt8](repeating: UInt8(number), count: size)
            for _ in 0..<4 { try? store.save(payload) }
        }
        let snapshot = try #require(store.restore().snapshot)
        #expect(snapshot.bytes.count == size)
        let first = try #require(snapshot.bytes.first)
        #expect(snapshot.bytes.allSatisfy { $0 == first }, "the snapshot mixes two saves")
        var info = stat()
        #expect(stat(store.path(for: .complete), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp.") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a symlink planted where the temporary or state file goes is not followed")
    func symlinkNotFollowed() throws {
        let directory = try ScratchDirectory()
        let store = try StateStore(appName: "app", appVersion: "1", directory: directory.path)
        let victim = directory.path + "/victim"
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        symlink(victim, store.path(for: .complete))
        try store.save([1, 2, 3])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(store.restore().snapshot?.bytes == [1, 2, 3])
    }

    @Test("directories the store creates are 0700, whatever the umask")
    func directoryMode() throws {
        let directory = try ScratchDirectory()
        let previous = umask(0)
        defer { umask(previous) }
        let nested = directory.path + "/a/b"
        let store = try StateStore(appName: "app", appVersion: "1", directory: nested)
        try store.save([9])
        for path in [directory.path + "/a", nested] {
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(path)")
        }
    }
}
