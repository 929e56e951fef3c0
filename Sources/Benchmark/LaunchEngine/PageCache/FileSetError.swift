import LaunchSupport

/// Why the file set of a launch target (its executable, interpreter and
/// shared libraries) could not be resolved. Every case names the input.
package enum FileSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// argv[0] has no '/' and is in no directory of PATH.
    case programNotFound(program: String, searched: [String])
    /// The path does not exist.
    case fileNotFound(path: String)
    /// The path exists but is a directory, a device, or lacks execute permission.
    case notExecutable(path: String, reason: String)
    /// Neither an ELF file nor a `#!` script.
    case notAnExecutableFormat(path: String, firstBytes: [UInt8])
    /// An ELF file this resolver does not read (32-bit, big-endian) or a
    /// damaged one.
    case unsupportedELF(path: String, reason: String)
    /// A `#!` line that names no interpreter, or scripts nested too deeply.
    case badScript(path: String, reason: String)
    /// The dynamic loader could not find a library the program needs.
    case libraryNotFound(library: String, neededBy: String)
    /// Asking the dynamic loader for the library list failed.
    case loaderFailed(executable: String, loader: String, reason: String)
    /// An `--evict` path that does not exist.
    case evictPathNotFound(path: String)

    package var description: String {
        switch self {
        case .programNotFound(let program, let searched):
            let dirs = searched.isEmpty ? "PATH is empty" : "searched PATH: \(searched.joined(separator: ":"))"
            return "program '\(program)' not found (\(dirs)); give its full path or fix PATH"
        case .fileNotFound(let path):
            return "'\(path)' does not exist"
        case .notExecutable(let path, let reason):
            return "'\(path)' is not executable: \(reason)"
        case .notAnExecutableFormat(let path, let firstBytes):
            let hex = firstBytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
            return "'\(path)' is neither an ELF executable nor a '#!' script (it starts with bytes \(hex))"
        case .unsupportedELF(let path, let reason):
            return "'\(path)': \(reason)"
        case .badScript(let path, let reason):
            return "script '\(path)': \(reason)"
        case .libraryNotFound(let library, let neededBy):
            // The library name comes from the ELF file: escaped for the terminal.
            return "'\(neededBy)' needs shared library '\(TerminalText.sanitized(library))', which the dynamic loader cannot find "
                + "(check LD_LIBRARY_PATH, RUNPATH or ldconfig)"
        case .loaderFailed(let executable, let loader, let reason):
            return "could not list the shared libraries of '\(executable)' with its loader '\(loader)': \(reason)"
        case .evictPathNotFound(let path):
            return "--evict path '\(path)' does not exist"
        }
    }
}

extension FileSetError {
    /// The file-set error for an executable or library the ELF reader refused.
    init(_ error: ELFError) {
        switch error {
        case .missing(let path): self = .fileNotFound(path: path)
        case .unreadable(let path, let reason): self = .notExecutable(path: path, reason: reason)
        case .notELF(let path, let firstBytes): self = .notAnExecutableFormat(path: path, firstBytes: firstBytes)
        case .unsupported(let path, let reason): self = .unsupportedELF(path: path, reason: reason)
        }
    }
}

extension ELFImage {
    /// `read(path:)`, its errors told as the file set's.
    static func readForFileSet(path: String) throws(FileSetError) -> ELFImage {
        do { return try read(path: path) } catch { throw FileSetError(error) }
    }
}
