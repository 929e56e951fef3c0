extension ReadyProbe {
    /// One form `--ready` (and a config file's `ready:`) takes.
    public struct Form: Sendable {
        /// As written on the command line: `port:N`, `window[:TITLE-REGEX]`.
        public let syntax: String
        /// When the launch counts as ready with it.
        public let meaning: String
        /// Watches an X display (`--display`), which only `run` and
        /// `record` give a program.
        public let needsDisplay: Bool
        /// Only with `--activate`, where it is the only probe.
        public let needsActivation: Bool
    }

    /// Every form of `--ready`, once: the help texts and the parse error
    /// are made from this list (``formList(displays:activation:stayingUp:meanings:)``), so a
    /// new probe cannot be missing from one of them.
    public static let forms: [Form] = [
        Form(syntax: "exit", meaning: "at exit, the default", needsDisplay: false, needsActivation: false),
        Form(syntax: "tracer", meaning: "LaunchProf's launch complete", needsDisplay: false, needsActivation: false),
        Form(syntax: "notify", meaning: "sd_notify READY=1", needsDisplay: false, needsActivation: false),
        Form(syntax: "port:N", meaning: "a TCP connect to localhost:N succeeds", needsDisplay: false, needsActivation: false),
        Form(syntax: "output:REGEX", meaning: "a stdout or stderr line matches", needsDisplay: false, needsActivation: false),
        Form(
            syntax: "window[:TITLE-REGEX]", meaning: "its first top-level window is mapped", needsDisplay: true,
            needsActivation: false),
        Form(
            syntax: "frame[:TITLE-REGEX]", meaning: "that window's first content is drawn", needsDisplay: true,
            needsActivation: false),
        Form(
            syntax: "response", meaning: "the request through the activated socket was answered", needsDisplay: false,
            needsActivation: true),
    ]

    /// The forms as a sentence's list: "exit, tracer, …, window[:TITLE-REGEX]
    /// or frame[:TITLE-REGEX]", with the display's and activation's forms
    /// when the command has them; `stayingUp` leaves out `exit`, for a
    /// program that must still run once ready.
    public static func formList(
        displays: Bool = true, activation: Bool = false, stayingUp: Bool = false, meanings: Bool = false
    ) -> String {
        let shown = forms.filter {
            (displays || !$0.needsDisplay) && (activation || !$0.needsActivation) && !(stayingUp && $0.syntax == "exit")
        }
        .map { meanings ? "\($0.syntax) (\($0.meaning))" : $0.syntax }
        guard let last = shown.last else { return "" }
        return shown.count == 1 ? last : shown.dropLast().joined(separator: ", ") + " or " + last
    }
}
