import LaunchAnalysis
import LaunchEngine
import Yams

/// A node of a parsed YAML config with its place (file, line, key path), so
/// every error can say where it is. Reading methods check the node's shape
/// and throw a ``ConfigError`` naming the key and what was expected.
struct ConfigNode {
    let node: Node
    let file: String
    /// `targets[1].runs`.
    let path: String

    func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, column: node.mark?.column, key: path, message: message)
    }

    private func child(_ node: Node, key: String) -> ConfigNode {
        ConfigNode(node: node, file: file, path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// What this node is, for "expected a list, got a mapping".
    private var kind: String {
        switch node {
        case .scalar(let scalar): "'\(scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// The keys of a mapping, each checked against `allowed`; unknown and
    /// repeated keys are errors at the key's own line.
    func mapping(allowed: [String]) throws(ConfigError) -> [String: ConfigNode] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping of keys, got \(kind)") }
        var entries: [String: ConfigNode] = [:]
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw ConfigNode(node: keyNode, file: file, path: path).error("keys must be plain words")
            }
            let key = scalar.string
            let keyPlace = ConfigNode(node: keyNode, file: file, path: path.isEmpty ? key : "\(path).\(key)")
            try keyPlace.checkNoNUL(key)
            guard allowed.contains(key) else {
                let suggestion = Self.closest(key, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
                throw keyPlace.error("unknown key (known here: \(allowed.joined(separator: ", ")))\(suggestion)")
            }
            guard entries[key] == nil else { throw keyPlace.error("appears twice") }
            entries[key] = child(value, key: key)
        }
        return entries
    }

    /// The items of a list.
    func list() throws(ConfigError) -> [ConfigNode] {
        guard case .sequence(let sequence) = node else { throw error("expected a list, got \(kind)") }
        return sequence.enumerated().map { ConfigNode(node: $0.element, file: file, path: "\(path)[\($0.offset)]") }
    }

    /// A scalar's text; `nonEmpty` rejects "". A NUL (`"\0"` in YAML) is an
    /// error wherever it is: it would end an argument, a variable or a path
    /// there, and what follows could pass for another variable.
    func string(nonEmpty: Bool = true) throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a text value, got \(kind)") }
        if nonEmpty, scalar.string.isEmpty { throw error("must not be empty") }
        try checkNoNUL(scalar.string)
        return scalar.string
    }

    func checkNoNUL(_ text: String) throws(ConfigError) {
        guard let offset = text.utf8.firstIndex(of: 0).map({ text.utf8.distance(from: text.utf8.startIndex, to: $0) }) else { return }
        throw error("holds a NUL character (byte \(offset)), which no argument, variable, name or path can pass")
    }

    func strings() throws(ConfigError) -> [String] {
        var values: [String] = []
        for item in try list() { values.append(try item.string()) }
        return values
    }

    /// A whole number from `minimum` to `maximum` (counts are capped: see
    /// `InputNumber/maximumCount`).
    func int(atLeast minimum: Int, atMost maximum: Int = InputNumber.maximumCount) throws(ConfigError) -> Int {
        let text = try string()
        do {
            return try InputNumber.count(parsing: text, of: path, in: minimum...maximum)
        } catch {
            throw self.error("\(error.problem), got '\(text)'")
        }
    }

    /// `5%` or `0.05`, strictly between 0 and 1.
    func fraction(name: String) throws(ConfigError) -> Double {
        let text = try string()
        do {
            return try Fraction(parsing: text).value
        } catch {
            throw self.error("\(name) \(error)")
        }
    }

    /// `10s`, `500ms`, or a number of seconds, validated by `InputNumber`.
    func duration() throws(ConfigError) -> Duration {
        let text = try string()
        do {
            return try InputNumber.duration(parsing: text, of: path)
        } catch {
            throw self.error("\(error.problem), got '\(text)'")
        }
    }

    /// A string-to-string mapping (environment variables).
    func stringMap() throws(ConfigError) -> [String: String] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping of NAME: value, got \(kind)") }
        var values: [String: String] = [:]
        for (keyNode, value) in mapping {
            let key = try ConfigNode(node: keyNode, file: file, path: path).string()
            let place = child(value, key: key)
            // `A=B: x` would reach the program as A with the value "B=x".
            if key.contains("=") { throw ConfigNode(node: keyNode, file: file, path: place.path).error("a name cannot hold '='") }
            guard values[key] == nil else { throw place.error("appears twice") }
            values[key] = try place.string(nonEmpty: false)
        }
        return values
    }

    /// The allowed word nearest to a misspelt one (edit distance at most 2).
    static func closest(_ word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { (candidate: $0, distance: editDistance(Array(word), Array($0))) }
        return scored.filter { $0.distance <= 2 }.min { $0.distance < $1.distance }?.candidate
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
