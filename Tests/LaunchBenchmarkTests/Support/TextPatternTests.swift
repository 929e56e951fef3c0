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
            // Where a match can start (a `^` first, the first scalars of
            // literals and alternations): skipped positions must not lose one.
            ("^READY", "READY after flood", true), ("^READY", "xREADY", false), ("READY", "xxxxREADY", true),
            ("^a|b", "cb", true), ("^a|b", "ca", false), ("(?i)ready", "xxREADY", true), ("(ab|cd)e", "xxcde", true),
            ("a*b", "xxxb", true), ("ab", "aab", true), ("(^a)", "ba", false), ("x?y", "zzy", true),
        ])
    func matches(pattern: String, text: String, expected: Bool) throws {
        #expect(try TextPattern(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test("lines that cannot start a match: none matches, whatever the pattern's start; the ready line does")
    func linesThatCannotMatch() throws {
        // The output probe's case: lines of 128 bytes before the ready line
        // (the flood test). The simulation skips positions where no match
        // can start (after a `^`, or before a literal's first scalar).
        let line = String(repeating: "x", count: 127)
        for pattern in ["^READY", "READY", "(?i)ready|listening"] {
            let compiled = try TextPattern(pattern)
            var matched = 0
            for _ in 0..<8192 where compiled.matches(line) { matched += 1 }
            #expect(matched == 0, "\(pattern)")
            #expect(compiled.matches("READY after flood"), "\(pattern)")
        }
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
