/// One measurement of a bisect: which commit against which, the verdict
/// (or why the commit was skipped), and how long it took.
public struct BisectStep: Sendable, Equatable, Codable {
    /// 1, 2, …
    public var number: Int
    /// "confirm", "confirm-longer", "test", "test-longer", "against-bad" or
    /// "effect" (the first slow commit against its parent, after the search).
    public var kind: String
    /// The commit measured as the head.
    public var head: BisectCommit
    /// The commit it was measured against.
    public var base: BisectCommit
    /// The gate's verdict; nil when the step was skipped.
    public var verdict: ChangeVerdict?
    /// Why the head could not be measured (a failed build or launch).
    public var skipped: String?
    /// The gate's last look: the change and its interval.
    public var look: GateLook?
    /// The gate's one-line verdict, or the skip's reason.
    public var summary: String
    /// Seconds of the step: building what was not built yet and measuring.
    public var seconds: Double
    /// Seconds the gate measured.
    public var measuring: Double

    /// A step.
    public init(
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
