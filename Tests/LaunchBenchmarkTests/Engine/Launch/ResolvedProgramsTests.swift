import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchEngine

/// A benchmark resolves each program once: validation finds it, the runs
/// reuse the file found (a spawner keeps what it resolved).
@Suite struct ResolvedProgramsTests {
    @Test func aProgramIsResolvedOncePerSpawner() throws {
        let scratch = try ScratchDirectory()
        let first = scratch.file("first")
        let later = scratch.file("later")
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
        // ExecutableFile, not Foundation's writer: a child another test forks
        // meanwhile must not keep the file open for writing (ETXTBSY).
        try ExecutableFile.write("#!/bin/sh\nexit 0\n", to: "\(later)/tool")
        let target = LaunchTarget(name: "tool", arguments: ["tool"] as [String], environment: ["PATH": "\(first):\(later)"])
        let spawner = Spawner()
        #expect(try spawner.resolveProgram(of: target) == "\(later)/tool")
        // A program that appears earlier in PATH afterwards is not looked
        // for again by the same spawner: the benchmark's runs all start the
        // file validation found.
        try ExecutableFile.write("#!/bin/sh\nexit 1\n", to: "\(first)/tool")
        #expect(try spawner.resolveProgram(of: target) == "\(later)/tool")
        #expect(try Spawner().resolveProgram(of: target) == "\(first)/tool", "another spawner resolves afresh")
        let run = try spawner.run(RunRequest(target: target))
        #expect(run.exit == .exited(0), "the spawn used the file resolved first")
    }
}
