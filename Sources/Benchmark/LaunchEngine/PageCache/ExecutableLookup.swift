import Glibc
import LaunchSupport

/// Finds the file argv[0] names and checks that it can be executed.
enum ExecutableLookup {
    /// posix_spawnp's search path when PATH is unset.
    static let defaultSearchPath = "/bin:/usr/bin"

    /// The path of `program`: itself when it contains '/', relative ones taken
    /// from `workingDirectory`; otherwise the first executable match in `searchPath`.
    static func locate(
        _ program: String, workingDirectory: String?, searchPath: String?
    ) throws(FileSetError) -> String {
        guard !program.isEmpty else { throw .fileNotFound(path: "") }
        if program.contains("/") {
            if program.hasPrefix("/") { return program }
            return workingDirectory.map { $0 + "/" + program } ?? program
        }
        let directories = (searchPath ?? defaultSearchPath).split(separator: ":").map(String.init)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : directory) + "/" + program
            if isExecutableFile(candidate) { return candidate }
        }
        throw .programNotFound(program: program, searched: directories)
    }

    /// Throws unless `path` is an existing regular file with execute permission.
    static func checkExecutable(_ path: String) throws(FileSetError) {
        var info = stat()
        do throws(SystemCallError) {
            try Syscall.check("stat", path) { stat(path, &info) }
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { throw .fileNotFound(path: path) }
            throw .notExecutable(path: path, reason: String(cString: strerror(error.errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file"
            throw .notExecutable(path: path, reason: kind)
        }
        // Root passes access(X_OK) when any execute bit is set, as exec does.
        guard access(path, X_OK) == 0, info.st_mode & 0o111 != 0 else {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            throw .notExecutable(path: path, reason: "no execute permission (mode \(mode)); chmod +x it")
        }
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
            && info.st_mode & 0o111 != 0
    }
}
