/// How one command spells `SamplingOptions`' flags: `--PREFIXruns`,
/// `--PREFIXhz`, `--PREFIXclock`, `--PREFIXsampler` and
/// `--PREFIX` + ``directoryName``.
protocol SamplingSpelling {
    /// What every flag starts with after `--`: "" for `profile`, "profile-" for `run`.
    static var prefix: String { get }
    /// The directory flag after the prefix: "output-dir" for `profile`, "dir" for `run`.
    static var directoryName: String { get }
    /// What every help text starts with ("With --profile: " for `run`).
    static var helpPrefix: String { get }
}

extension SamplingSpelling {
    /// `text` (a sentence) after ``helpPrefix``, its first letter lowercased there.
    static func help(_ text: String) -> String {
        helpPrefix.isEmpty ? text : helpPrefix + text.prefix(1).lowercased() + text.dropFirst()
    }
}
