/// Where desktop programs are launched (`--display`).
public enum DisplayChoice: Sendable, Equatable {
    /// A private Xvfb launchprof starts for the benchmark and stops after it.
    case virtual
    /// An X display by name (`:1`), e.g. a real session's.
    case named(String)

    /// `virtual`, or a display name (`:N` or `host:N`).
    public init(parsing text: String) throws(DisplayChoiceError) {
        if text == "virtual" {
            self = .virtual
            return
        }
        guard let colon = text.lastIndex(of: ":"), let number = Int(text[text.index(after: colon)...].prefix { $0 != "." }),
            number >= 0
        else { throw DisplayChoiceError(text: text) }
        self = .named(text)
    }
}
