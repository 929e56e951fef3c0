import Glibc

/// A file launchprof runs or loads besides itself — its spawner (`lp-spawn`)
/// or the preload library — and where it is looked for.
///
/// In order: the file an environment variable names (then that file only);
/// the installed layout, found from launchprof's own path
/// (`<prefix>/bin/launchprof` → `<prefix>/libexec/launchprof/<name>`: the
/// .deb's /usr and the release tarball's folder); then the build tree, where
/// `swift build` puts it beside the executable (the CLI, or the test bundle
/// in the same folder). Every path tried is kept, so that an error can name
/// them all.
package struct CompanionFile: Sendable {
    /// The file's name.
    package let name: String
    /// The environment variable that names the file to use instead.
    package let variable: String
    /// Folders, relative to the executable's, where a build puts the file
    /// ("" is the executable's folder itself).
    package let buildFolders: [String]

    /// The spawner, run by every benchmark (docs/spawner.md).
    package static let spawner = CompanionFile(name: "lp-spawn", variable: "LAUNCHPROF_SPAWNER", buildFolders: [""])
    /// liblaunchprof-preload.so, put in LD_PRELOAD by `launchprof profile`:
    /// `swift build` copies it into the launchprof target's resources.
    package static let preloadLibrary = CompanionFile(
        name: ProfileRecorder.preloadLibraryName, variable: "LAUNCHPROF_PRELOAD_LIBRARY",
        buildFolders: [ProfileRecorder.resourcesFolder, ""])

    /// liblaunchprof-audit.so, put in LD_AUDIT by `launchprof explain --loader`
    /// and `run --loader`: `swift build` copies it into the launchprof target's resources.
    package static let auditLibrary = CompanionFile(
        name: LoaderAudit.libraryName, variable: "LAUNCHPROF_AUDIT_LIBRARY",
        buildFolders: [ProfileRecorder.resourcesFolder, ""])

    /// The installed layout's folder, relative to the prefix that holds `bin/`.
    package static let installedFolder = "libexec/launchprof"

    /// What a search found: the path, or nil; and every path tried, in order.
    package struct Search: Sendable, Equatable {
        /// The file found, or nil.
        package var path: String?
        /// Every path tried, in order; the one found last.
        package var tried: [String]
        /// Why none was found beyond the paths (e.g. /proc/self/exe unreadable).
        package var problem: String?
    }

    /// Looks for the file; `mode` is what it must allow (`X_OK` for a program,
    /// `R_OK` for a library). A set variable is the only place tried.
    package func locate(mode: Int32) -> Search {
        if let configured = getenv(variable).map({ String(cString: $0) }), !configured.isEmpty {
            let usable = access(configured, mode) == 0
            return Search(
                path: usable ? configured : nil, tried: [configured],
                problem: usable ? nil : "\(variable) names a file that is not \(mode == X_OK ? "executable" : "readable")")
        }
        guard let executable = Self.ownExecutable() else {
            return Search(path: nil, tried: [], problem: "cannot read /proc/self/exe to find the folder launchprof is in")
        }
        return search(executable: executable, mode: mode)
    }

    /// Looks in ``candidates(executable:)`` for a launchprof at `executable`.
    package func search(executable: String, mode: Int32) -> Search {
        var tried: [String] = []
        for candidate in candidates(executable: executable) {
            tried.append(candidate)
            if access(candidate, mode) == 0 { return Search(path: candidate, tried: tried, problem: nil) }
        }
        return Search(path: nil, tried: tried, problem: nil)
    }

    /// The paths tried for an executable at `executable` (an absolute path),
    /// in order: the installed layout, then the build folders.
    package func candidates(executable: String) -> [String] {
        let folder = Self.parent(of: executable)
        let prefix = Self.parent(of: folder)
        let installed = (prefix == "/" ? "" : prefix) + "/" + Self.installedFolder + "/" + name
        let base = folder == "/" ? "" : folder
        let built = buildFolders.map { $0.isEmpty ? base + "/" + name : base + "/" + $0 + "/" + name }
        return [installed] + built.filter { $0 != installed }
    }

    /// The folder `path` is in ("/" for a file at the root).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The running executable's path, symbolic links resolved (what the
    /// kernel says /proc/self/exe is), or nil when it cannot be read.
    static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
