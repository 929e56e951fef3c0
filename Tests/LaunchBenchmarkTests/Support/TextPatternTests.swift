import LaunchSupport
import Testing

/// The ready probes' patterns: the common syntax, matched in time linear in
/// the text, whatever the pattern.
@Suite("TextPattern")
struct TextPatternTests {
    @Test(
        "matches as the usual regular expressions do",
        arguments: [
            ("^ready$", "ready", true), ("^ready$", "ready now", false), ("ready", "all ready now", true),
            ("^listening on 127\\.0\\.0\\.1:[0-9]+", "listening on 127.0.0.1:8080", true),
            ("^listening on 127\\.0\\.0\\.1:[0-9]+", "listening on 127x0.0.1:8080", false),
            ("a|b|c", "xxc", true), ("(ab)+c", "ababc", true), ("(ab)+c", "ac", false), ("x{2,3}y", "xxy", true),
            ("^x{2,3}y", "xy", false), ("^x{2,}$", "xxxxx", true), ("colou?r", "color", true), ("\\d+ ms", "took 12 ms", true),
            ("\\bword\\b", "a word here", true), ("\\bword\\b", "swordfish", false), ("[^a-z]", "abc", false),
            ("[^a-z]", "abC", true), ("(?i)^SETTINGS$", "Settings", true), ("^Settings$", "settings", false),
            ("(?:a|b)*c", "abababc", true), ("(?<name>x)y", "xy", true), ("a{", "a{", true), ("^$", "", true),
            ("é+", "café", true), ("[\\w.]+@x", "me.you@x", true), (".*", "", true), ("\\s", "nospace", false),
        ])
    func matches(pattern: String, text: String, expected: Bool) throws {
        #expect(try TextPattern(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test("(a+)+$ and friends on 16 KiB of text end: linear, never exponential", .timeLimit(.minutes(1)))
    func catastrophicPatternsAreLinear() throws {
        let text = String(repeating: "a", count: TextPattern.maximumText - 1) + "b"
        for pattern in ["(a+)+$", "(a|aa)+$", "(a*)*x$", "^(a|a?)+$", "(x+x+)+y", "(.*a){20}$"] {
            #expect(try !TextPattern(pattern).matches(text), "\(pattern)")
        }
        // The text past the cap is not looked at, and its end is not there.
        let long = String(repeating: "a", count: TextPattern.maximumText * 4) + "READY"
        #expect(try !TextPattern("READY").matches(long))
        #expect(try !TextPattern("(a+)+$").matches(long))
        #expect(try TextPattern("^(a+)+").matches(long))
    }

    @Test(
        "what needs backtracking, or is too large, is refused with the reason",
        arguments: [
            ("(a)\\1", "back-references"), ("(?=a)", "look-around"), ("(?<=a)b", "look-around"), ("a*+", "possessive"),
            ("(a", "without its ')'"), ("a)", "unbalanced"), ("[a", "without its ']'"), ("*a", "repeats nothing"),
            ("(a{1000}){1000}", "too large"), ("a{5,2}", "below its minimum"), ("\\q", "unknown escape"),
        ])
    func refused(pattern: String, reason: String) {
        let error = #expect(throws: TextPatternError.self) { _ = try TextPattern(pattern) }
        #expect(error.map { "\($0)".contains(reason) } == true, "\(pattern): \(String(describing: error))")
    }
}
