import Foundation

/// The labels every series launchprof exports carries besides its target
/// and mode: the machine, launchprof's version, and what CI knows (commit,
/// branch, runner), read from the usual CI variables and overridden by
/// `--label k=v`.
package struct MetricLabels: Sendable, Equatable {
    /// Label names and values, in the order they are written.
    package private(set) var pairs: [(name: String, value: String)]

    /// Labels from `pairs` as given.
    package init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = []
        for (name, value) in pairs { self[name] = value }
    }

    /// The value of label `name`, or nil; setting nil removes it.
    package subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.name == name }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    package static func == (lhs: MetricLabels, rhs: MetricLabels) -> Bool {
        lhs.pairs.map(\.name) == rhs.pairs.map(\.name) && lhs.pairs.map(\.value) == rhs.pairs.map(\.value)
    }

    /// The CI variables read for each label, first set wins: GitHub Actions,
    /// GitLab CI, Buildkite, CircleCI, Jenkins, then the generic `CI_*` names.
    package static let ciVariables: [(label: String, variables: [String])] = [
        ("commit", ["GITHUB_SHA", "CI_COMMIT_SHA", "BUILDKITE_COMMIT", "CIRCLE_SHA1", "GIT_COMMIT"]),
        ("branch", ["GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BUILDKITE_BRANCH", "CIRCLE_BRANCH", "GIT_BRANCH"]),
        ("runner", ["RUNNER_NAME", "CI_RUNNER_DESCRIPTION", "BUILDKITE_AGENT_NAME", "CIRCLE_NODE_INDEX", "NODE_NAME"]),
    ]

    /// `machine` (the host name) and `version` (launchprof's), then commit,
    /// branch and runner from the CI variables set in `environment`.
    package static func standard(
        machine: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> MetricLabels {
        var labels = MetricLabels([("machine", machine), ("version", launchprofVersion)])
        for (label, variables) in ciVariables {
            if let value = variables.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) {
                labels[label] = value
            }
        }
        return labels
    }

    /// The labels of one run: the standard ones, then `configured` (a
    /// config's `push: labels:`), then `flags` (`--label k=v`, which win).
    package static func resolve(
        flags: [String], configured: [String: String]? = nil, machine: String = MachineDescription.current().hostname,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MetricLabelError) -> MetricLabels {
        var labels = standard(machine: machine, environment: environment)
        for (name, value) in (configured ?? [:]).sorted(by: { $0.key < $1.key }) { labels[name] = value }
        for text in flags {
            let (name, value) = try parse(text)
            labels[name] = value
        }
        return labels
    }

    /// What the labels add to a results document: every label but
    /// `machine` and `version`, which the document holds already; nil when
    /// that is none.
    package var documentLabels: [String: String]? {
        let extra = pairs.filter { $0.name != "machine" && $0.name != "version" }
        return extra.isEmpty ? nil : Dictionary(extra, uniquingKeysWith: { _, last in last })
    }

    /// Labels that launchprof sets on each series itself, which `--label`
    /// cannot name.
    package static let reserved: Set<String> = [
        "target", "mode", "quantile", "le", "milestone", "interval", "thread", "metric", "statistic", "limit", "baseline", "job",
        "instance",
    ]

    /// Parses `--label k=v`: a Prometheus label name (`[a-zA-Z_][a-zA-Z0-9_]*`,
    /// not starting with `__`, not one launchprof sets) and any value.
    package static func parse(_ text: String) throws(MetricLabelError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else { throw .notAPair(text) }
        let name = String(text[..<equals]), value = String(text[text.index(after: equals)...])
        guard isValidName(name) else { throw .badName(text, name) }
        guard !reserved.contains(name) else { throw .reserved(text, name) }
        return (name, value)
    }

    /// Whether `name` is a label name Prometheus accepts and does not reserve.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !name.hasPrefix("__") else { return false }
        func letter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" }
        return letter(first) && name.unicodeScalars.dropFirst().allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }
}

/// A `--label` (or config `labels:` entry) that cannot be used.
package enum MetricLabelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `NAME=VALUE`.
    case notAPair(String)
    /// The name is not a Prometheus label name.
    case badName(String, String)
    /// The name is one launchprof sets itself.
    case reserved(String, String)

    package var description: String {
        switch self {
        case .notAPair(let text): "--label '\(text)' is not NAME=VALUE"
        case let .badName(text, name):
            "--label '\(text)': '\(name)' is not a Prometheus label name (letters, digits and _, not starting with a digit or __)"
        case let .reserved(text, name): "--label '\(text)': launchprof sets '\(name)' itself"
        }
    }
}
