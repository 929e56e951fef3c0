import Foundation

/// The plugin's command line: a launchprof subcommand and its arguments,
/// less the plugin's own `--product NAME` (only before a `--`, after which
/// every word is the measured command's).
struct PluginArguments {
    /// The launchprof subcommand (`run`, `gate`, `history`, …).
    let subcommand: String
    /// The subcommand's arguments without `--product`.
    let passed: [String]
    /// The products `--product` named, in order.
    let products: [String]
    /// No subcommand, or `help`: the plugin's own usage.
    let wantsPluginHelp: Bool

    /// The subcommands that run programs, for which the plugin builds products.
    static let building: Set<String> = ["run", "gate"]
    /// What `run` writes when not told where: the package's latest results.
    static let defaultResults = ".launchprof/results.json"

    init(_ arguments: [String]) throws(LaunchprofPluginError) {
        guard let first = arguments.first, !["help", "--help", "-h"].contains(first) else {
            (subcommand, passed, products, wantsPluginHelp) = ("", [], [], true)
            return
        }
        subcommand = first
        wantsPluginHelp = false
        var passed: [String] = []
        var products: [String] = []
        var rest = arguments.dropFirst()[...]
        while let word = rest.popFirst() {
            if word == "--" {
                passed.append(word)
                passed.append(contentsOf: rest)
                break
            }
            guard Self.building.contains(subcommand), word == "--product" || word.hasPrefix("--product=") else {
                passed.append(word)
                continue
            }
            let value = word == "--product" ? rest.popFirst() : String(word.dropFirst("--product=".count))
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { throw .missingValue(option: "--product") }
            products.append(value)
        }
        self.passed = passed
        self.products = products
    }

    /// `--help` or `-h` among the options: launchprof's help, nothing built.
    var asksForHelp: Bool { passed.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" } }

    /// The value of `option` among the options (before `--`), if given.
    func value(of option: String) -> String? {
        let options = passed.prefix { $0 != "--" }
        for (index, word) in options.enumerated() {
            if word == option, index + 1 < options.count { return options[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }

    /// The text of the config file launchprof will read (`--config`, else
    /// the package's launchprof.yml), or nil when there is none.
    func configText(packageDirectory: String) throws(LaunchprofPluginError) -> String? {
        guard Self.building.contains(subcommand) else { return nil }
        let given = value(of: "--config")
        let path = given.map { $0.hasPrefix("/") ? $0 : packageDirectory + "/" + $0 } ?? packageDirectory + "/launchprof.yml"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // launchprof reads and checks the file itself; this is only for the
        // names of the products it runs, so a bounded read is enough.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableConfig(path: path, reason: "not readable")
        }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: 1 << 20)) ?? Data()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The executable products to build, in order: those `--product`
    /// names; none when a command is given after `--`; those whose name is
    /// the last part of a path in the config file (a target's
    /// `command: [.build/release/NAME]`); with no config file, every
    /// executable product for `run`.
    func productsToBuild(executables: [String], configText: String?) throws(LaunchprofPluginError) -> [String] {
        guard Self.building.contains(subcommand), !asksForHelp else { return [] }
        for product in products where !executables.contains(product) {
            throw .unknownProduct(product, executables: executables)
        }
        if !products.isEmpty { return products }
        if passed.contains("--") { return [] }
        if let configText {
            let named = Self.pathNames(in: configText)
            return executables.filter { named.contains($0) }
        }
        guard subcommand == "run" else { return [] }
        guard !executables.isEmpty else { throw .noExecutables }
        return executables
    }

    /// The last part of every word with a '/' in `text` (words split at
    /// blanks, brackets, commas and quotes).
    static func pathNames(in text: String) -> Set<String> {
        let separators = Set<Character>(" \t\r\n[],\"'{}:")
        let words = text.split { separators.contains($0) }
        return Set(words.filter { $0.contains("/") }.compactMap { $0.split(separator: "/").last.map(String.init) })
    }

    /// launchprof's argv: the subcommand, the arguments as given, and for
    /// `run`: the results file when none was asked for, and the products
    /// `--product` named (or, with no config file, every product built) as
    /// commands, each named after its product.
    func launchprofArguments(built: [(name: String, path: String)], configText: String?) -> [String] {
        var arguments = [subcommand]
        let options = passed.prefix { $0 != "--" }
        let terminated = passed.suffix(from: options.endIndex)
        arguments.append(contentsOf: options)
        if subcommand == "run", !asksForHelp {
            if value(of: "--export-json") == nil { arguments += ["--export-json", Self.defaultResults] }
            if !products.isEmpty || configText == nil {
                for product in built { arguments += ["--command-name", product.name, Self.quoted(product.path)] }
            }
        }
        arguments.append(contentsOf: terminated)
        return arguments
    }

    /// `path` as one word of launchprof's command splitting (POSIX single quotes).
    static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What `swift package launchprof help` prints.
    static let usage = """
        OVERVIEW: launchprof, run from a Swift package (docs/swiftpm-plugin.md)

        USAGE: swift package [--allow-writing-to-package-directory] launchprof SUBCOMMAND [options]

          run [--product NAME]... [run options]
              Builds the executable products in release, then measures their launches:
              --product NAME (repeatable): those products, as commands;
              else, with a launchprof.yml: the products its targets run, then its targets;
              else: every executable product of the package.
              Results: .launchprof/results.json unless --export-json names another file.
          gate [--product NAME]... [gate options]
              Builds the products named (or those launchprof.yml runs), then gates.
          compare, history, report, profile, explain, export, record, ...
              Passed to launchprof as they are (launchprof SUBCOMMAND --help).

        launchprof runs in the package's folder and writes into its .launchprof/,
        so SwiftPM asks for permission to write to the package directory;
        --allow-writing-to-package-directory grants it without asking.
        """
}
