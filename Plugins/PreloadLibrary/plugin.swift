import PackagePlugin

/// Builds liblaunchprof-preload.so, the launch sampler for programs that do
/// not link LaunchProf, with the C compiler alone: a SwiftPM library product
/// is linked by swiftc, which adds the Swift runtime (and libstdc++) to every
/// product, and a preload library must not load those into the C or Python
/// program it profiles. The result links only the C library and libunwind;
/// SwiftPM copies it into the launchprof target's resources
/// (`launchprof_launchprof.resources/` beside the executable), where
/// `launchprof profile` finds it.
@main
struct PreloadLibrary: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let sources = context.package.directoryURL.appending(path: "Sources")
        let preload = sources.appending(path: "CLaunchProfPreload")
        let support = sources.appending(path: "CLaunchProfSupport")
        let format = sources.appending(path: "LaunchProfFormat")
        // The preload library's own file and the sampler's translation units,
        // compiled again with LP_PRELOAD (their functions hidden in the .so).
        let units =
            [preload.appending(path: "preload.c"), format.appending(path: "checksum.c")]
            + ["sampler.c", "sampler_threads.c", "sampler_modules.c", "sampler_loader.c", "sampler_encode.c"]
            .map { support.appending(path: $0) }
        let headers =
            [format.appending(path: "include/launchprof_format.h")]
            + ["sampler_env.h", "sampler_internal.h", "include/launchprof_sampler.h", "include/launchprof_support.h"]
            .map { support.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "liblaunchprof-preload.so")
        return [
            .buildCommand(
                displayName: "Building liblaunchprof-preload.so (C library and libunwind only)",
                executable: try context.tool(named: "clang").url,
                arguments: [
                    "-shared", "-fPIC", "-O2", "-g", "-std=gnu11", "-DLP_PRELOAD=1",
                    "-I", support.path, "-I", support.appending(path: "include").path,
                    "-I", preload.appending(path: "include").path, "-I", format.appending(path: "include").path,
                    "-o", output.path,
                ] + units.map(\.path) + ["-Wl,--as-needed", "-lunwind", "-ldl", "-lpthread"],
                inputFiles: units + headers, outputFiles: [output])
        ]
    }
}
