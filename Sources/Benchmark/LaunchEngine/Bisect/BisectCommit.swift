/// A commit as a bisect names it: its hash, subject and committer date.
package struct BisectCommit: Sendable, Equatable, Codable {
    /// The full hash.
    package var hash: String
    /// The first line of its message.
    package var subject: String
    /// The committer date, ISO 8601 as git prints it (`%cI`).
    package var date: String

    /// A commit.
    package init(hash: String, subject: String, date: String) {
        self.hash = hash
        self.subject = subject
        self.date = date
    }

    /// "1a2b3c4d5e6f add a cache (2026-11-27T14:06:04+00:00)".
    package var line: String { "\(hash.prefix(12)) \(subject) (\(date))" }
}
