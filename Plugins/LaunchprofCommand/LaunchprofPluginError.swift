/// Why `swift package launchprof` stopped; each message names what to change.
enum LaunchprofPluginError: Error, CustomStringConvertible {
    case noSubcommand
    case missingValue(option: String)
    case unknownProduct(String, executables: [String])
    case noExecutables
    case buildFailed(product: String)
    case noExecutable(product: String, built: [String])
    case cannotStart(path: String, reason: String)
    case launchprofFailed(subcommand: String, status: Int32)
    case unreadableConfig(path: String, reason: String)
    case cannotCreate(path: String, reason: String)

    var description: String {
        switch self {
        case .noSubcommand:
            return "no launchprof subcommand given: swift package launchprof run|gate|compare|history|… (swift package launchprof help)"
        case .missingValue(let option):
            return "\(option) needs a value"
        case .unknownProduct(let name, let executables):
            let known = executables.isEmpty ? "the package has none" : "its executable products: \(executables.joined(separator: ", "))"
            return "--product \(name): the package has no executable product of that name (\(known))"
        case .noExecutables:
            return
                "the package has no executable product to run: add one, or name a command after the options (swift package launchprof run -- PROGRAM)"
        case .buildFailed(let product):
            return "SwiftPM could not build \(product) in release (its log is above)"
        case .noExecutable(let product, let built):
            return "SwiftPM built \(product) but listed no executable of that name (built: \(built.joined(separator: ", ")))"
        case .cannotStart(let path, let reason):
            return "cannot start launchprof at \(path): \(reason)"
        case .launchprofFailed(let subcommand, let status):
            return "launchprof \(subcommand) exited with status \(status) (docs/ci.md lists what each status means)"
        case .unreadableConfig(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .cannotCreate(let path, let reason):
            return "cannot create \(path) for launchprof's results: \(reason)"
        }
    }
}
