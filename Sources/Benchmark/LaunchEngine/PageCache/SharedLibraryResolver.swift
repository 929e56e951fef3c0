import Foundation
import LaunchSupport

/// Finds the file set of a launch target: its executable, ELF interpreter
/// and shared libraries, resolved the way the dynamic loader resolves them.
///
/// For a dynamically linked ELF program with glibc's loader it asks the
/// loader itself (`LoaderTrace`, what `ldd` does), which is exact by
/// construction; with another loader it reads DT_NEEDED and searches like
/// the loader (`LibrarySearch`). A `#!` script contributes itself plus its
/// interpreter's file set (and, for `#!/usr/bin/env NAME`, NAME's).
package struct SharedLibraryResolver: Sendable {
    /// How deep `#!` interpreters may nest (the kernel's limit is 4).
    static let maximumScriptDepth = 4

    /// A resolver.
    package init() {}

    /// The file set of `target`: argv[0] (or /bin/sh with `useShell`), with
    /// the target's environment added to `environment` for LD_LIBRARY_PATH.
    package func fileSet(
        for target: LaunchTarget, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FileSetError) -> LaunchFileSet {
        let program = target.useShell ? "/bin/sh" : (target.arguments.first?.string ?? "")
        let merged = environment.merging(target.environment) { _, new in new }
        return try fileSet(
            program: program, workingDirectory: target.workingDirectory,
            searchPath: environment["PATH"], environment: merged)
    }

    /// The file set of `program`. A name without '/' is looked up in
    /// `searchPath` (the harness's PATH, as posix_spawnp does); a relative
    /// path is taken from `workingDirectory`.
    package func fileSet(
        program: String, workingDirectory: String? = nil, searchPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FileSetError) -> LaunchFileSet {
        let path = try ExecutableLookup.locate(
            program, workingDirectory: workingDirectory, searchPath: searchPath ?? environment["PATH"])
        return try fileSet(executablePath: path, environment: environment, depth: 0)
    }

    private func fileSet(
        executablePath path: String, environment: [String: String], depth: Int
    ) throws(FileSetError) -> LaunchFileSet {
        try ExecutableLookup.checkExecutable(path)
        guard let canonical = FilePaths.canonical(path) else { throw .fileNotFound(path: path) }
        var set = LaunchFileSet(program: canonical, files: [canonical])
        set.add([], symlinks: FilePaths.symlinkChain(path))
        let head: [UInt8]
        do {
            head = try RandomAccessFile(path: canonical).withClose { file throws(ELFError) in try file.bytes(at: 0, count: 256) }
        } catch {
            throw FileSetError(error)
        }
        if head.starts(with: [0x23, 0x21]) {  // "#!"
            try addScriptInterpreter(of: path, head: head, to: &set, environment: environment, depth: depth)
        } else if head.starts(with: ELFImage.magic) {
            try addLoadedObjects(of: canonical, to: &set, environment: environment)
        } else {
            throw .notAnExecutableFormat(path: path, firstBytes: Array(head.prefix(4)))
        }
        return set
    }

    private func addLoadedObjects(
        of executable: String, to set: inout LaunchFileSet, environment: [String: String]
    ) throws(FileSetError) {
        let image = try ELFImage.readForFileSet(path: executable)
        guard let interpreter = image.interpreter else {
            set.isStaticallyLinked = true
            return
        }
        let objects: [String]
        if LoaderTrace.isGlibcLoader(interpreter) {
            objects = try LoaderTrace.loadedObjects(
                executable: executable, interpreter: interpreter, environment: environment)
        } else {
            objects = [interpreter] + (try LibrarySearch(environment: environment).libraries(of: executable, image: image))
        }
        for object in objects {
            guard let canonical = FilePaths.canonical(object) else { throw .fileNotFound(path: object) }
            set.add([canonical], symlinks: FilePaths.symlinkChain(object))
        }
        set.interpreter = FilePaths.canonical(interpreter) ?? interpreter
    }

    private func addScriptInterpreter(
        of script: String, head: [UInt8], to set: inout LaunchFileSet, environment: [String: String], depth: Int
    ) throws(FileSetError) {
        guard depth < Self.maximumScriptDepth else {
            throw .badScript(path: script, reason: "interpreters nest more than \(Self.maximumScriptDepth) deep")
        }
        let shebang = try Shebang(script: script, head: head)
        set.isScript = true
        let interpreter = try fileSet(executablePath: shebang.interpreter, environment: environment, depth: depth + 1)
        set.interpreter = interpreter.program
        set.add(interpreter.files, symlinks: interpreter.symlinks)
        // `#!/usr/bin/env NAME` runs NAME from the child's PATH: it is read at launch too.
        if let program = shebang.envProgram {
            let path = try ExecutableLookup.locate(program, workingDirectory: nil, searchPath: environment["PATH"])
            let target = try fileSet(executablePath: path, environment: environment, depth: depth + 1)
            set.add(target.files, symlinks: target.symlinks)
        }
    }
}
