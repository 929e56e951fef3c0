import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

@Suite("Cache: resolving the launch file set")
struct CacheResolverTests {
    let resolver = SharedLibraryResolver()

    @Test("/usr/bin/env: the executable, libc and the ELF interpreter")
    func dynamicExecutable() throws {
        let set = try resolver.fileSet(program: "/usr/bin/env")
        #expect(set.program == "/usr/bin/env")
        #expect(set.files.first == "/usr/bin/env")
        #expect(set.files.contains { $0.hasSuffix("/libc.so.6") })
        let interpreter = try #require(set.interpreter)
        #expect(interpreter.contains("ld-linux"))
        #expect(set.files.contains(interpreter))
        #expect(!set.isStaticallyLinked && !set.isScript)
        // The PT_INTERP name is a symlink on Debian (/lib64 -> multiarch dir): both are known.
        if FilePaths.isSymlink("/lib64/ld-linux-x86-64.so.2") {
            #expect(set.symlinks.contains("/lib64/ld-linux-x86-64.so.2"))
        }
    }

    @Test("A bare name is found through PATH and canonicalized through /bin -> usr/bin")
    func pathLookup() throws {
        let set = try resolver.fileSet(program: "true", searchPath: "/nonexistent:/bin")
        #expect(set.program == FilePaths.canonical("/bin/true"))
        #expect(set.files.contains { $0.hasSuffix("/libc.so.6") })
    }

    @Test("The loader's list agrees with DT_NEEDED read from the ELF files")
    func crossCheckWithELF() throws {
        let set = try resolver.fileSet(program: "/usr/bin/env")
        let image = try ELFImage.read(path: "/usr/bin/env")
        #expect(image.needed.contains("libc.so.6"))
        #expect(image.interpreter == "/lib64/ld-linux-x86-64.so.2" || image.interpreter != nil)
        let searched = try LibrarySearch(environment: [:]).libraries(of: "/usr/bin/env", image: image)
        #expect(!searched.isEmpty)
        for library in searched { #expect(set.files.contains(library), "\(library) missing from the loader's list") }
    }

    @Test("A #! script: the script, its interpreter and the interpreter's libraries")
    func script() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let script = try scratch.writeText("hello.sh", "#!/bin/sh -e\necho hello\n", mode: 0o755)
        let set = try resolver.fileSet(program: script)
        #expect(set.isScript)
        #expect(set.files.first == FilePaths.canonical(script))
        #expect(set.interpreter == FilePaths.canonical("/bin/sh"))
        #expect(set.files.contains(try #require(FilePaths.canonical("/bin/sh"))))
        #expect(set.files.contains { $0.hasSuffix("/libc.so.6") })
    }

    @Test("#!/usr/bin/env NAME also brings in NAME from PATH")
    func envScript() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let script = try scratch.writeText("hello", "#!/usr/bin/env sh\necho hello\n", mode: 0o755)
        let set = try resolver.fileSet(program: script, environment: ["PATH": "/usr/bin:/bin"])
        #expect(set.files.contains("/usr/bin/env"))
        #expect(set.files.contains(try #require(FilePaths.canonical("/bin/sh"))))
    }

    @Test("A statically linked executable is its only file")
    func staticExecutable() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let source = "int main(void) { return 0; }\n"
        // A static C library may not be installed: then there is nothing to test.
        guard let program = try? scratch.compile("static", source, flags: ["-static"]) else { return }
        let set = try resolver.fileSet(program: program)
        #expect(set.isStaticallyLinked)
        #expect(set.files == [FilePaths.canonical(program)!])
    }

    @Test("Missing, not executable, not a program: clear errors naming the input")
    func errors() throws {
        let scratch = try ScratchDirectory.diskBacked()
        #expect(throws: FileSetError.fileNotFound(path: "/no/such/program")) {
            try resolver.fileSet(program: "/no/such/program")
        }
        #expect(throws: FileSetError.programNotFound(program: "no-such-program-xyz", searched: ["/usr/bin"])) {
            try resolver.fileSet(program: "no-such-program-xyz", searchPath: "/usr/bin")
        }
        let data = try scratch.writeText("notes.txt", "just text\n", mode: 0o644)
        let error = try #require(resolveError(data))
        guard case .notExecutable(let path, let reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(path == data && reason.contains("execute permission"))
        #expect(error.description.contains(data))
        let text = try scratch.writeText("text", "just text\n", mode: 0o755)
        #expect(throws: FileSetError.notAnExecutableFormat(path: text, firstBytes: Array("just".utf8))) {
            try resolver.fileSet(program: text)
        }
        #expect(throws: FileSetError.notExecutable(path: scratch.path, reason: "it is a directory")) {
            try resolver.fileSet(program: scratch.path)
        }
        let noInterpreter = try scratch.writeText("bad.sh", "#!\n", mode: 0o755)
        #expect(throws: FileSetError.badScript(path: noInterpreter, reason: "the '#!' line names no interpreter")) {
            try resolver.fileSet(program: noInterpreter)
        }
    }

    /// The error resolving `program` throws, or nil when it resolves.
    private func resolveError(_ program: String) -> FileSetError? {
        do throws(FileSetError) {
            _ = try resolver.fileSet(program: program)
            return nil
        } catch {
            return error
        }
    }

    @Test("A library the loader cannot find is reported with its name and who needs it")
    func missingLibrary() throws {
        let scratch = try ScratchDirectory.diskBacked()
        let library = try scratch.compile("libgone.so", "int gone(void) { return 1; }\n", flags: ["-shared", "-fPIC"])
        let program = try scratch.compile(
            "needsgone", "int gone(void);\nint main(void) { return gone(); }\n",
            flags: ["-L", scratch.path, "-lgone", "-Wl,-rpath,$ORIGIN"])
        // With the library beside it, $ORIGIN finds it.
        let set = try resolver.fileSet(program: program)
        #expect(set.files.contains(FilePaths.canonical(library)!))
        try FileManager.default.removeItem(atPath: library)
        #expect(throws: FileSetError.libraryNotFound(library: "libgone.so", neededBy: FilePaths.canonical(program)!)) {
            try resolver.fileSet(program: program)
        }
    }

    @Test("The shebang line is split as the kernel splits it")
    func shebangParsing() throws {
        let line = Shebang.init
        let env = try line("s", Array("#!/usr/bin/env -S python3 -u\n".utf8))
        #expect(env.interpreter == "/usr/bin/env" && env.argument == "-S python3 -u" && env.envProgram == "python3")
        let sh = try line("s", Array("#! /bin/sh\r\n".utf8))
        #expect(sh.interpreter == "/bin/sh" && sh.argument == nil && sh.envProgram == nil)
        #expect(throws: FileSetError.self) { try line("s", Array("#!sh\n".utf8)) }
    }

    @Test("The loader's listing is parsed, the vDSO skipped, 'not found' reported")
    func loaderListingParsing() throws {
        let listing = """
            \tlinux-vdso.so.1 (0x00007ffd2b5f2000)
            \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0b1c000000)
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f0b1c400000)
            """
        #expect(
            try LoaderTrace.parse(listing, executable: "x") == [
                "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2",
            ])
        #expect(throws: FileSetError.libraryNotFound(library: "libfoo.so.1", neededBy: "x")) {
            try LoaderTrace.parse("\tlibfoo.so.1 => not found\n", executable: "x")
        }
    }
}
