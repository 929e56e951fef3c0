import Foundation
import LaunchAnalysis
import LaunchEngine
import LaunchReports
import Yams

/// Reads and checks a `launchprof.yml`. Every problem is a ``ConfigError``
/// naming the file, the line and the key; nothing is half-read.
///
/// Relative paths (`working_directory`, a command's program when it has a
/// '/', `evict`) are relative to the config file's directory, so the file
/// works from any current directory.
package enum ConfigReader {
    static let topKeys = ["version", "reference", "threshold", "significance", "counts", "defaults", "targets", "budgets", "push"]
    static let pushKeys = ["gateway", "job", "labels"]
    static let scheduleKeys = ["runs", "min_runs", "max_runs", "warmup", "modes", "timeout"]
    static let targetKeys =
        ["name", "command", "working_directory", "environment", "ready", "evict", "budgets", "activate", "request", "http_get"]
        + scheduleKeys
    static let budgetKeys = ["target", "mode", "metric", "statistic", "limit", "threshold"]

    /// Reads the file at `path`.
    package static func read(path: String) throws(ConfigError) -> LaunchConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = access(path, F_OK) == 0 ? "cannot be read as UTF-8 text" : "does not exist"
            throw ConfigError(file: path, message: reason)
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(text, file: path, directory: directory)
    }

    /// Parses config text; `file` names it in errors, `directory` anchors relative paths.
    package static func parse(_ text: String, file: String, directory: String) throws(ConfigError) -> LaunchConfig {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw ConfigError(file: file, message: "is empty") }
            root = node
        } catch let error as ConfigError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error, file: file)
        } catch {
            throw ConfigError(file: file, message: "is not valid YAML: \(error)")
        }
        let top = try ConfigNode(node: root, file: file, path: "").mapping(allowed: topKeys)
        if let version = top["version"], try version.int(atLeast: 1) != 1 {
            throw version.error("this launchprof reads config version 1")
        }
        let reference = try top["reference"]?.string()
        var config = LaunchConfig(path: file, targets: [], reference: reference)
        config.threshold = try top["threshold"]?.fraction(name: "the regression threshold")
        config.significance = try top["significance"]?.fraction(name: "the significance level")
        if let counts = top["counts"] {
            let text = try counts.string()
            guard let source = CountSource(flag: text) else {
                throw counts.error("'\(text)' is not a way to count (expected perf or callgrind)")
            }
            config.counts = source
        }
        var defaultReady = ReadyProbe.exit
        if let defaults = top["defaults"] {
            let keys = try defaults.mapping(allowed: scheduleKeys + ["ready"])
            config.defaults = try schedule(keys)
            defaultReady = try keys["ready"].map(probe) ?? .exit
        }
        guard let targets = top["targets"] else {
            throw ConfigError(file: file, line: root.mark?.line, key: "targets", message: "is missing; list at least one target")
        }
        let items = try targets.list()
        guard !items.isEmpty else { throw targets.error("must list at least one target") }
        for item in items {
            let (target, schedule, budgets) = try self.target(item, directory: directory, ready: defaultReady, reference: reference)
            if config.targets.contains(where: { $0.name == target.name }) {
                throw item.error("a second target named '\(target.name)'; names must be unique")
            }
            config.targets.append(target)
            config.schedules[target.name] = schedule
            config.budgets += budgets
        }
        if let list = top["budgets"] {
            for item in try list.list() {
                config.budgets.append(try budget(item, target: nil, reference: reference))
            }
        }
        if let push = top["push"] { config.push = try self.push(push) }
        try check(config, top: top)
        return config
    }

    /// `push: {gateway: URL, job: NAME, labels: {k: v}}`, each checked as
    /// the flags are (`--push-gateway`, `--label`).
    private static func push(_ node: ConfigNode) throws(ConfigError) -> LaunchConfig.PushConfig {
        let keys = try node.mapping(allowed: pushKeys)
        var push = LaunchConfig.PushConfig()
        if let gateway = keys["gateway"] {
            let url = try gateway.string()
            do {
                _ = try PushGateway(url: url)
            } catch {
                throw gateway.error("'\(url)' is not an http:// or https:// URL with a host")
            }
            push.gateway = url
        }
        push.job = try keys["job"]?.string()
        if let labels = keys["labels"] {
            push.labels = try labels.stringMap()
            for (name, value) in push.labels.sorted(by: { $0.key < $1.key }) {
                do {
                    _ = try MetricLabels.parse("\(name)=\(value)")
                } catch {
                    throw labels.error("'\(name)' cannot be a label: \(error)")
                }
            }
        }
        return push
    }

    private static func target(
        _ item: ConfigNode, directory: String, ready: ReadyProbe, reference: String?
    ) throws(ConfigError) -> (LaunchTarget, TargetSchedule, [Budget]) {
        let keys = try item.mapping(allowed: targetKeys)
        guard let nameNode = keys["name"] else { throw item.error("has no 'name'") }
        let name = try nameNode.string()
        guard let commandNode = keys["command"] else { throw item.error("target '\(name)' has no 'command' (an argv list)") }
        var command = try commandNode.strings()
        guard !command.isEmpty else { throw commandNode.error("must list the program and its arguments") }
        let workingDirectory = try keys["working_directory"].map { node throws(ConfigError) in
            let path = resolve(try node.string(), against: directory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw node.error("'\(path)' is not a directory")
            }
            return path
        }
        if command[0].contains("/") { command[0] = resolve(command[0], against: workingDirectory ?? directory) }
        var evict: [String] = []
        if let node = keys["evict"] {
            for path in try node.list() {
                let resolved = resolve(try path.string(), against: directory)
                guard access(resolved, F_OK) == 0 else { throw path.error("'\(resolved)' does not exist") }
                evict.append(resolved)
            }
        }
        var target = LaunchTarget(
            name: name, arguments: command, environment: try keys["environment"]?.stringMap() ?? [:],
            workingDirectory: workingDirectory, ready: try keys["ready"].map(probe) ?? ready, evictPaths: evict)
        if let activation = try activation(keys, target: name) {
            if let node = keys["ready"], !SocketActivation.allows(ready: target.ready) {
                throw node.error("target '\(name)': 'activate' \(SocketActivation.readinessRule); drop 'ready'")
            }
            target.activation = activation
            target.ready = .response
        }
        var budgets: [Budget] = []
        if let list = keys["budgets"] {
            for budgetItem in try list.list() { budgets.append(try budget(budgetItem, target: name, reference: reference)) }
        }
        return (target, try schedule(keys), budgets)
    }

    /// `activate: tcp:PORT|unix:PATH` with `request: BYTES` or `http_get: PATH`.
    private static func activation(_ keys: [String: ConfigNode], target: String) throws(ConfigError) -> SocketActivation? {
        guard let node = keys["activate"] else {
            for key in ["request", "http_get"] {
                if let other = keys[key] { throw other.error("target '\(target)': '\(key)' applies with 'activate'") }
            }
            return nil
        }
        if let request = keys["request"], keys["http_get"] != nil {
            throw request.error("target '\(target)': give 'request' or 'http_get', not both")
        }
        do {
            let endpoint = try SocketActivation.endpoint(parsing: try node.string())
            if let request = keys["request"] {
                return SocketActivation(endpoint: endpoint, request: try SocketActivation.request(parsing: try request.string()))
            }
            let path = try keys["http_get"]?.string() ?? "/"
            do {
                return SocketActivation(endpoint: endpoint, request: try SocketActivation.httpGet(parsing: path))
            } catch {
                throw (keys["http_get"] ?? node).error("target '\(target)': \(error.description)")
            }
        } catch let error as SocketActivationError {
            throw node.error("target '\(target)': \(error.description)")
        } catch let error as ConfigError {
            throw error
        } catch {
            throw node.error("\(error)")
        }
    }

    private static func probe(_ node: ConfigNode) throws(ConfigError) -> ReadyProbe {
        let text = try node.string()
        do {
            return try ReadyProbe(parsing: text)
        } catch {
            throw node.error(error.description)
        }
    }

    private static func schedule(_ keys: [String: ConfigNode]) throws(ConfigError) -> TargetSchedule {
        var schedule = TargetSchedule()
        if let modes = keys["modes"] {
            var values: [LaunchMode] = []
            for item in try modes.list() {
                let text = try item.string()
                guard let mode = LaunchMode(rawValue: text) else { throw item.error("unknown mode '\(text)' (cold or warm)") }
                if !values.contains(mode) { values.append(mode) }
            }
            guard !values.isEmpty else { throw modes.error("must list cold, warm or both") }
            schedule.modes = values
        }
        schedule.warmup = try keys["warmup"]?.int(atLeast: 0)
        schedule.timeout = try keys["timeout"]?.duration()
        let runs = try keys["runs"]?.int(atLeast: 1)
        let minRuns = try keys["min_runs"]?.int(atLeast: 1)
        let maxRuns = try keys["max_runs"]?.int(atLeast: 1)
        if let runs {
            if minRuns != nil || maxRuns != nil {
                throw (keys["min_runs"] ?? keys["max_runs"])!.error("'runs' fixes the run count; drop min_runs and max_runs")
            }
            schedule.stopping = .fixed(runs)
        } else if minRuns != nil || maxRuns != nil {
            let defaults = StoppingRule()
            let minimum = minRuns ?? defaults.minRuns
            let maximum = maxRuns ?? max(minimum, defaults.maxRuns)
            guard minimum <= maximum else { throw keys["max_runs"]!.error("max_runs (\(maximum)) is less than min_runs (\(minimum))") }
            schedule.stopping = StoppingRule(minRuns: minimum, maxRuns: maximum, minTime: defaults.minTime)
        }
        return schedule
    }

    private static func budget(_ item: ConfigNode, target: String?, reference: String?) throws(ConfigError) -> Budget {
        let keys = try item.mapping(allowed: target == nil ? budgetKeys : budgetKeys.filter { $0 != "target" })
        let targetName: String
        if let target {
            targetName = target
        } else {
            guard let node = keys["target"] else { throw item.error("a top-level budget needs 'target'") }
            targetName = try node.string()
        }
        guard let metricNode = keys["metric"] else { throw item.error("has no 'metric' (e.g. wall_to_ready)") }
        let metric = try self.metric(metricNode)
        let statistic: SummaryStatistic
        if let node = keys["statistic"] {
            let text = try node.string()
            guard let parsed = SummaryStatistic(parsing: text) else {
                throw node.error("unknown statistic '\(text)' (p50, p90, p95, p99, mean, min, max)")
            }
            statistic = parsed
        } else {
            statistic = .p50
        }
        guard let limitNode = keys["limit"] else { throw item.error("has no 'limit' (e.g. 40ms, or 1.2x hello-c)") }
        let limitText = try limitNode.string()
        let limit: Budget.Limit
        do {
            limit = try Budget.Limit(parsing: limitText, defaultReference: reference)
        } catch {
            throw limitNode.error(error.description)
        }
        if case .absolute(let quantity) = limit, quantity.unit != metric.unit {
            throw limitNode.error("a \(quantity.unit.noun) limit for \(metric.key), which is a \(metric.unit.noun)")
        }
        if case .ratio(_, _, let other?) = limit, other.unit != metric.unit {
            throw limitNode.error("a ratio of \(metric.key) (a \(metric.unit.noun)) to \(other.key) (a \(other.unit.noun))")
        }
        var mode: LaunchMode?
        if let node = keys["mode"] {
            let text = try node.string()
            guard let parsed = LaunchMode(rawValue: text) else { throw node.error("unknown mode '\(text)' (cold or warm)") }
            mode = parsed
        }
        return Budget(
            target: targetName, mode: mode, metric: metric, statistic: statistic, limit: limit,
            threshold: try keys["threshold"]?.fraction(name: "the regression threshold"),
            source: "\(item.file):\(item.node.mark?.line ?? 0)")
    }

    private static func metric(_ node: ConfigNode) throws(ConfigError) -> Metric {
        let text = try node.string()
        if let metric = Metric(key: Metric.aliases[text] ?? text) {
            if case .milestone(let name) = metric, name.isEmpty { throw node.error("'milestone:' needs a milestone name") }
            return metric
        }
        throw node.error("unknown metric '\(text)' (\(Metric.configNames))")
    }

    /// Checks across the file: budgets name real targets, the reference exists.
    private static func check(_ config: LaunchConfig, top: [String: ConfigNode]) throws(ConfigError) {
        let names = config.targets.map(\.name)
        if let reference = config.reference, !names.contains(reference) {
            throw top["reference"]!.error("'\(reference)' is not a target (targets: \(names.joined(separator: ", ")))")
        }
        for budget in config.budgets {
            let line = budget.source.flatMap { $0.split(separator: ":").last.flatMap { Int($0) } }
            func fail(_ message: String) -> ConfigError { ConfigError(file: config.path, line: line, key: "budgets", message: message) }
            guard names.contains(budget.target) else {
                throw fail("budget for '\(budget.target)', which is not a target (targets: \(names.joined(separator: ", ")))")
            }
            if case .ratio(_, let reference, _) = budget.limit {
                guard names.contains(reference) else {
                    throw fail("ratio to '\(reference)', which is not a target (targets: \(names.joined(separator: ", ")))")
                }
                guard reference != budget.target else { throw fail("a target's budget cannot be a ratio to itself") }
            }
        }
    }

    private static func resolve(_ path: String, against directory: String) -> String {
        path.hasPrefix("/")
            ? path
            : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
                .standardizedFileURL.path
    }

    private static func yamlError(_ error: YamlError, file: String) -> ConfigError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ConfigError(file: file, line: mark.line, column: mark.column, message: "is not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ConfigError(
                file: file, line: context.mark.line, column: context.mark.column, key: duplicates.sorted().joined(separator: ", "),
                message: "appears twice in the mapping that starts here")
        default:
            return ConfigError(file: file, message: "is not valid YAML: \(error)")
        }
    }
}

extension Metric.Unit {
    var noun: String {
        switch self {
        case .nanoseconds: "time"
        case .bytes: "size"
        case .count: "count"
        }
    }
}
