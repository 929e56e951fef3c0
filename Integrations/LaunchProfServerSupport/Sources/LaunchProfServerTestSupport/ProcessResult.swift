/// How a process the tests ran ended, and what it wrote.
public struct ProcessResult: Sendable {
    /// Its exit status, or the signal that ended it (see `exited`).
    public var status: Int32
    /// Whether it exited (rather than being ended by a signal).
    public var exited: Bool
    /// Its standard output and error, interleaved.
    public var output: String

    /// The result of a process that ended with `status` and wrote `output`.
    public init(status: Int32, exited: Bool = true, output: String) {
        self.status = status
        self.exited = exited
        self.output = output
    }
}
