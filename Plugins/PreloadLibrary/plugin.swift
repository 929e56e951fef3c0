import Foundation
import PackagePlugin

/// Builds liblaunchprof-preload.so, the launch sampler for programs that do
/// not link LaunchProf, with the C compiler alone: a SwiftPM library product
/// is linked by swiftc, which adds the Swift runtime (and libstdc++) to every
/// product, and a preload library must not load those into the C or Python
/// program it profiles. The result links only the C library and libunwind;
/// SwiftPM copies it into the launchprof target's resources
/// (`launchprof_launchprof.resources/` beside the executable), where
/// `launchprof profile` finds it.
///
/// Its sources are the preload library's own file and every C file of the
/// targets it is built from, as SwiftPM lists them: the sampler
/// (CLaunchProfSampler) and the trace format's checksum (LaunchProfFormat).
/// A file added to either is in the library with no list to keep.
@main
struct PreloadLibrary: BuildToolPlugin {
    /// The targets whose C files the library is linked from, lowest first.
    static let targets = ["LaunchProfFormat", "CLaunchProfSampler"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let preload = context.package.directoryURL.appending(path: "Sources/Benchmark/CLaunchProfPreload/preload.c")
        var units = [preload]
        var headers: [URL] = []
        var includes: [String] = []
        for name in Self.targets {
            guard let module = context.package.targets.first(where: { $0.name == name }) as? ClangSourceModuleTarget else {
                throw PreloadLibraryError(message: "the package has no C target named \(name)")
            }
            units += module.sourceFiles.filter { $0.type == .source }.map(\.url)
            headers += module.sourceFiles.filter { $0.type == .header }.map(\.url)
            includes += [module.directoryURL.path] + (module.publicHeadersDirectoryURL.map { [$0.path] } ?? [])
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "liblaunchprof-preload.so")
        return [
            .buildCommand(
                displayName: "Building liblaunchprof-preload.so (C library and libunwind only)",
                executable: try context.tool(named: "clang").url,
                // Hidden by default: the sampler's functions bind to this
                // library's copy, never to a program's; preload.c exports
                // its two interposers.
                arguments: ["-shared", "-fPIC", "-O2", "-g", "-std=gnu11", "-fvisibility=hidden"]
                    + includes.flatMap { ["-I", $0] }
                    + ["-o", output.path] + units.map(\.path) + ["-Wl,--as-needed", "-lunwind", "-ldl", "-lpthread"],
                inputFiles: units + headers, outputFiles: [output])
        ]
    }
}

/// The package is not laid out as the plugin expects.
struct PreloadLibraryError: Error, CustomStringConvertible {
    let message: String
    var description: String { "PreloadLibrary: \(message)" }
}
