/// A `--display` value that is neither `virtual` nor a display name.
public struct DisplayChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was given.
    public var text: String

    public var description: String {
        "--display '\(text)': use virtual (a private Xvfb launchprof starts) or an X display name such as :0"
    }
}
