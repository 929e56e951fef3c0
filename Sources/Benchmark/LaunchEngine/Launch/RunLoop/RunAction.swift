/// What the run loop's state machine asks the loop to do.
enum RunAction: Equatable, Sendable {
    /// Send this signal to the launched process's group.
    case signal(Int32)
    /// Start watching for the trace file.
    case awaitTrace
    /// Send the activation request again, to the program that is up.
    case sendWarmRequest
}
