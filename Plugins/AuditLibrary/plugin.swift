import Foundation
import PackagePlugin

/// Builds liblaunchprof-audit.so, the dynamic loader's audit library
/// (rtld-audit(7)) that times each shared library of a launch
/// (`launchprof explain --loader`, docs/sampling.md), with the C compiler
/// alone, for the reason PreloadLibrary gives: a swiftc-linked product would
/// load the Swift runtime into the audit namespace of every program audited.
/// It links only the C library, and lands in the launchprof target's
/// resources beside liblaunchprof-preload.so.
///
/// Its sources are `Sources/Benchmark/CLaunchProfAudit/audit.c` and the wire format's
/// header (LaunchProfFormat), where its protocol is defined.
@main
struct AuditLibrary: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let audit = context.package.directoryURL.appending(path: "Sources/Benchmark/CLaunchProfAudit/audit.c")
        guard let format = context.package.targets.first(where: { $0.name == "LaunchProfFormat" }) as? ClangSourceModuleTarget,
            let include = format.publicHeadersDirectoryURL
        else {
            throw AuditLibraryError(message: "the package has no C target named LaunchProfFormat with public headers")
        }
        let headers = format.sourceFiles.filter { $0.type == .header }.map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "liblaunchprof-audit.so")
        return [
            .buildCommand(
                displayName: "Building liblaunchprof-audit.so (C library only)",
                executable: try context.tool(named: "clang").url,
                // Hidden by default: only the la_* functions are exported, so
                // the loader finds no la_symbind or la_pltenter and binding
                // stays as it is without the library.
                arguments: ["-shared", "-fPIC", "-O2", "-g", "-std=gnu11", "-fvisibility=hidden", "-I", include.path]
                    + ["-o", output.path, audit.path],
                inputFiles: [audit] + headers, outputFiles: [output])
        ]
    }
}

/// The package is not laid out as the plugin expects.
struct AuditLibraryError: Error, CustomStringConvertible {
    let message: String
    var description: String { "AuditLibrary: \(message)" }
}
