import Foundation
import Glibc

/// The llvm-symbolizer that turns sampled addresses into source files,
/// lines and inlined calls, or why there is none. It is optional: without
/// it frames keep their ELF symbol names.
package enum SourceLineTool: Sendable, Equatable {
    /// llvm-symbolizer (or a compatible tool) at `path`.
    case tool(path: String)
    /// Turned off with LAUNCHPROF_SYMBOLIZER=none.
    case off
    /// Not set, and not found anywhere it is looked for.
    case notFound
    /// LAUNCHPROF_SYMBOLIZER names something that cannot be run.
    case unusable(path: String, reason: String)

    /// The variable that names the tool (a path, or `none`).
    package static let variable = "LAUNCHPROF_SYMBOLIZER"

    /// The tool to use: `$LAUNCHPROF_SYMBOLIZER` (a path, a name looked up
    /// in PATH, or `none`), else `llvm-symbolizer` in PATH, else the highest
    /// `llvm-symbolizer-NN` in `versionedDirectory` (Debian and Ubuntu
    /// install those without the plain name), else the one beside the real
    /// path of `swift` (every Swift toolchain ships one).
    package static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment, versionedDirectory: String = "/usr/bin"
    ) -> SourceLineTool {
        let searchPath = environment["PATH"]
        if let named = environment[variable], !named.isEmpty {
            if named == "none" { return .off }
            do throws(LaunchError) {
                return .tool(path: try ProgramResolver.resolve(named, searchPath: searchPath))
            } catch {
                return .unusable(path: named, reason: error.description)
            }
        }
        if let path = try? ProgramResolver.resolve("llvm-symbolizer", searchPath: searchPath) { return .tool(path: path) }
        if let path = highestVersioned(in: versionedDirectory) { return .tool(path: path) }
        if let swift = try? ProgramResolver.resolve("swift", searchPath: searchPath) {
            let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
            let beside = real.appendingPathComponent("llvm-symbolizer").path
            if (try? ProgramResolver.checkExecutable(beside)) != nil { return .tool(path: beside) }
        }
        return .notFound
    }

    /// `llvm-symbolizer-NN` with the highest NN (compared as numbers) in `directory`.
    static func highestVersioned(in directory: String) -> String? {
        let prefix = "llvm-symbolizer-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let versions = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix(prefix), let version = Int(name.dropFirst(prefix.count)) else { return nil }
            let path = directory + "/" + name
            return (try? ProgramResolver.checkExecutable(path)) != nil ? (version, path) : nil
        }
        return versions.max { $0.0 < $1.0 }?.1
    }
}
