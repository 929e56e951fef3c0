import Foundation
import PackagePlugin

/// `swift package launchprof SUBCOMMAND [options]`: launchprof from inside
/// a Swift package (docs/swiftpm-plugin.md).
///
/// `run` and `gate` first build the package's executable products in
/// release through SwiftPM (the ones `--product` names; else those the
/// package's launchprof.yml runs; else, with no launchprof.yml, every
/// executable product, which `run` then measures); every other subcommand
/// passes through untouched. launchprof itself is this plugin's tool: SwiftPM
/// builds it (and lp-spawn beside it) only when the plugin runs, never for
/// the package's own targets. It runs in the package's folder, so its
/// results, baselines and profiles land in the package's `.launchprof/`:
/// hence the permission to write to the package directory.
@main
struct LaunchprofCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let request = try PluginArguments(arguments)
        if request.wantsPluginHelp {
            print(PluginArguments.usage)
            return
        }
        let package = context.package.directoryURL
        let executables = context.package.products(ofType: ExecutableProduct.self).map(\.name)
        let configText = try request.configText(packageDirectory: package.path)
        let products = try request.productsToBuild(executables: executables, configText: configText)
        var built: [(name: String, path: String)] = []
        for product in products {
            built.append((product, try build(product)))
        }
        let launchprof = try context.tool(named: "launchprof").url.path
        var environment = ProcessInfo.processInfo.environment
        // launchprof looks for lp-spawn beside itself, but SwiftPM builds
        // plugin tools as `<target>-tool` (launchprof-tool,
        // LaunchProfSpawner-tool), so the spawner is named outright.
        if environment["LAUNCHPROF_SPAWNER"] == nil, let spawner = Self.spawner(in: context) {
            environment["LAUNCHPROF_SPAWNER"] = spawner
        }
        let arguments = request.launchprofArguments(built: built, configText: configText)
        if arguments.contains(PluginArguments.defaultResults) {
            let folder = package.appending(path: ".launchprof")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw LaunchprofPluginError.cannotCreate(path: folder.path, reason: "\(error)")
            }
        }
        let status = try Self.run(launchprof, arguments, in: package, environment: environment)
        guard status == 0 else {
            throw LaunchprofPluginError.launchprofFailed(subcommand: request.subcommand, status: status)
        }
    }

    /// lp-spawn as this plugin's tool: SwiftPM names a tool after its
    /// target (`LaunchProfSpawner`), not after the product (`lp-spawn`).
    private static func spawner(in context: PluginContext) -> String? {
        for name in ["LaunchProfSpawner", "lp-spawn"] {
            if let tool = try? context.tool(named: name) { return tool.url.path }
        }
        return nil
    }

    /// Builds `product` in release and returns its executable's path.
    private func build(_ product: String) throws -> String {
        print("Building \(product) in release…")
        let result = try packageManager.build(.product(product), parameters: .init(configuration: .release))
        guard result.succeeded else {
            print(result.logText)
            throw LaunchprofPluginError.buildFailed(product: product)
        }
        guard
            let artifact = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product })
        else {
            throw LaunchprofPluginError.noExecutable(product: product, built: result.builtArtifacts.map(\.url.path))
        }
        return artifact.url.path
    }

    /// Runs launchprof in `folder` with the plugin's standard streams and
    /// returns its exit status (128 + N when a signal N ended it).
    private static func run(_ executable: String, _ arguments: [String], in folder: URL, environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = environment
        do {
            try process.run()
        } catch {
            throw LaunchprofPluginError.cannotStart(path: executable, reason: "\(error)")
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
