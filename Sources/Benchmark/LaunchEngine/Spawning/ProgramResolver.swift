import Glibc
import LaunchSupport

/// Resolves argv[0] to the file posix_spawn will execute, as execvp does:
/// a name without '/' is searched in PATH, anything else is taken as a path.
///
/// Resolving up front (rather than posix_spawnp) turns "not found" and "not
/// executable" into clear errors before t0, instead of an exit status 127
/// from a child that never ran.
package enum ProgramResolver {
    /// PATH when the environment has none, as glibc's execvp uses.
    package static let defaultSearchPath = "/bin:/usr/bin"

    /// The path to execute for `program`, searching `searchPath` (a PATH value).
    package static func resolve(_ program: String, searchPath: String?) throws(LaunchError) -> String {
        if program.contains("/") {
            try checkExecutable(program)
            return program
        }
        let path = searchPath ?? defaultSearchPath
        var firstDenied: LaunchError?
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            // An empty PATH entry means the current directory, as in execvp.
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + program
            do throws(LaunchError) {
                try checkExecutable(candidate)
                return candidate
            } catch .noSuchFile {
                continue
            } catch {
                firstDenied = firstDenied ?? error
            }
        }
        throw firstDenied ?? .programNotFound(program, searched: path)
    }

    /// Throws unless `path` is a regular file this user may execute.
    package static func checkExecutable(_ path: String) throws(LaunchError) {
        var info = stat()
        do throws(SystemCallError) {
            try Syscall.check("stat", path) { stat(path, &info) }
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { throw .noSuchFile(path) }
            throw .notExecutable(path, reason: String(cString: strerror(error.errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .notExecutable(path, reason: "it is a directory") }
        if (info.st_mode & S_IFMT) != S_IFREG { throw .notExecutable(path, reason: "it is not a regular file") }
        guard access(path, X_OK) == 0 else {
            throw .notExecutable(path, reason: "no execute permission (try chmod +x)")
        }
    }
}
