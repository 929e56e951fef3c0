/// One measurement of a bisect: which commit against which, the verdict
/// (or why the commit was skipped), and how long it took.
package struct BisectStep: Sendable, Equatable, Codable {
    /// 1, 2, …
    package var number: Int
    /// "confirm", "confirm-longer", "test", "test-longer", "against-bad" or
    /// "effect" (the first slow commit against its parent, after the search).
    package var kind: String
    /// The commit measured as the head.
    package var head: BisectCommit
    /// The commit it was measured against.
    package var base: BisectCommit
    /// The gate's verdict; nil when the step was skipped.
    package var verdict: ChangeVerdict?
    /// Why the head could not be measured (a failed build or launch).
    package var skipped: String?
    /// The gate's last look: the change and its interval.
    package var look: GateLook?
    /// The gate's one-line verdict, or the skip's reason.
    package var summary: String
    /// Seconds of the step: building what was not built yet and measuring.
    package var seconds: Double
    /// Seconds the gate measured.
    package var measuring: Double

    /// A step.
    package init(
        number: Int, kind: String, head: BisectCommit, base: BisectCommit, verdict: ChangeVerdict?, skipped: String?,
        look: GateLook?, summary: String, seconds: Double, measuring: Double
    ) {
        self.number = number
        self.kind = kind
        self.head = head
        self.base = base
        self.verdict = verdict
        self.skipped = skipped
        self.look = look
        self.summary = summary
        self.seconds = seconds
        self.measuring = measuring
    }
}
