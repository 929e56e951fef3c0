import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchEngine

/// Where launchprof looks for its spawner and preload library: an install's
/// `../libexec/launchprof/`, then the build tree beside the executable.
@Suite("Companion files: the spawner and preload library found from launchprof's own path")
struct CompanionFileTests {
    @Test("an install's libexec/launchprof comes first, then the build folders beside the executable")
    func candidatesInOrder() {
        #expect(
            CompanionFile.spawner.candidates(executable: "/usr/bin/launchprof")
                == ["/usr/libexec/launchprof/lp-spawn", "/usr/bin/lp-spawn"])
        #expect(
            CompanionFile.preloadLibrary.candidates(executable: "/opt/lp/bin/launchprof") == [
                "/opt/lp/libexec/launchprof/liblaunchprof-preload.so",
                "/opt/lp/bin/launchprof_launchprof.resources/liblaunchprof-preload.so",
                "/opt/lp/bin/liblaunchprof-preload.so",
            ])
        #expect(CompanionFile.spawner.candidates(executable: "/launchprof") == ["/libexec/launchprof/lp-spawn", "/lp-spawn"])
    }

    @Test("a real prefix: the installed spawner is found; without it, the error names every path tried")
    func installedPrefix() throws {
        let prefix = try ScratchDirectory(prefix: "launchprof-prefix")
        let executable = prefix.file("bin/launchprof")
        let installed = prefix.file("libexec/launchprof/lp-spawn")
        try FileManager.default.createDirectory(atPath: prefix.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix.file("libexec/launchprof"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: installed, contents: Data("#!/bin/sh\n".utf8)))

        // Not executable yet: a spawner must be, so both places are tried and neither does.
        chmod(installed, 0o644)
        let missing = CompanionFile.spawner.search(executable: executable, mode: X_OK)
        #expect(missing.path == nil)
        #expect(missing.tried == [installed, prefix.file("bin/lp-spawn")])
        let message = LaunchError.spawnerMissing(tried: missing.tried, reason: "not installed").description
        #expect(message.contains("'\(installed)'") && message.contains("'\(prefix.file("bin/lp-spawn"))'"), "\(message)")

        chmod(installed, 0o755)
        let found = CompanionFile.spawner.search(executable: executable, mode: X_OK)
        #expect(found.path == installed)
        #expect(found.tried == [installed])
    }

    @Test("the build tree: the preload library in the target's resources beside the executable")
    func buildTree() throws {
        let build = try ScratchDirectory(prefix: "launchprof-build")
        let resources = build.file(ProfileRecorder.resourcesFolder)
        try FileManager.default.createDirectory(atPath: resources, withIntermediateDirectories: true)
        let library = resources + "/" + ProfileRecorder.preloadLibraryName
        #expect(FileManager.default.createFile(atPath: library, contents: Data()))
        let found = CompanionFile.preloadLibrary.search(executable: build.file("launchprof"), mode: R_OK)
        #expect(found.path == library)
        #expect(found.tried.count == 2)
    }
}
