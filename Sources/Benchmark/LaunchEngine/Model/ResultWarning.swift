/// A warning kept in a results document, a baseline comparison or a profile:
/// its kind, for tools that act on some and not others, and the sentence
/// reports print.
///
/// Saved as `{"kind": "outliers", "message": "…"}`. Documents written before
/// warnings had kinds hold plain strings; those are read as `Kind/unknown`,
/// and a kind this version does not know is kept as it was written.
public struct ResultWarning: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// What a warning is about. A string in saved documents, so kinds added
    /// later survive being read and written again by an older launchprof.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The kind as saved.
        public var rawValue: String
        /// A kind by its saved name.
        public init(rawValue: String) { self.rawValue = rawValue }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        /// Runs far from the median.
        public static let outliers = Kind(rawValue: "outliers")
        /// The first run much slower than the rest.
        public static let slowFirstRun = Kind(rawValue: "slow_first_run")
        /// Runs that did not launch successfully.
        public static let failedRuns = Kind(rawValue: "failed_runs")
        /// Too few successful runs for the statistics.
        public static let fewRuns = Kind(rawValue: "few_runs")
        /// Cold runs that began with the evicted files still cached.
        public static let residencyStayedHigh = Kind(rawValue: "residency_stayed_high")
        /// Something a run showed about the program (records from another
        /// process, more records than the limit, a refused notification).
        public static let runNote = Kind(rawValue: "run_note")
        /// The benchmark stopped before every run was made.
        public static let stopped = Kind(rawValue: "stopped")
        /// A signal interrupted the benchmark.
        public static let interrupted = Kind(rawValue: "interrupted")
        /// The baseline was measured elsewhere, by another version, with
        /// another command or environment.
        public static let baselineDiffers = Kind(rawValue: "baseline_differs")
        /// A target, mode or metric that could not be compared with the baseline.
        public static let notCompared = Kind(rawValue: "not_compared")
        /// A module of a profile whose frames could not all be named.
        public static let symbolization = Kind(rawValue: "symbolization")
        /// Read from a document written before warnings had kinds.
        public static let unknown = Kind(rawValue: "unknown")
    }

    /// What the warning is about.
    public var kind: Kind
    /// The sentence reports print.
    public var message: String

    /// A warning of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    private enum CodingKeys: String, CodingKey {
        case kind, message
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(.unknown, text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Kind.self, forKey: .kind), try container.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
    }
}
