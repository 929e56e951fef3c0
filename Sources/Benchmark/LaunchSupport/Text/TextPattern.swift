/// A regular expression matched in time linear in the text: the patterns
/// of `--ready output:REGEX`, `window:TITLE-REGEX` and `frame:TITLE-REGEX`.
///
/// A backtracking engine (Swift's Regex, PCRE) takes exponential time on
/// patterns like `(a+)+$` against `aaaa…b`, and a probe matches text a
/// program chose: one line spun the run loop at 100% CPU, deaf to the
/// timeout and to signals. This is a Thompson NFA simulated over the
/// text's Unicode scalars once (as RE2 and Go's regexp do): every step
/// advances all live states together, so a match costs at most
/// (text length) × (program size), and the program is capped at
/// ``maximumProgram`` instructions (repetitions expanded), so a match is
/// bounded whatever the pattern and text.
///
/// The syntax is the common one: literals, `.`, `[…]` and `[^…]` with ranges,
/// `\d \w \s \D \W \S \b \B \t \n \r`, escaped punctuation, `^ $`, groups
/// `(…)`, `(?:…)`, `(?<name>…)`, `|`, and `* + ? {n} {n,} {n,m}` (lazy forms
/// too: only whether a match exists counts), and `(?i)` at the start for
/// case-insensitive matching. What needs backtracking (back-references,
/// look-around, possessive quantifiers) is refused with the reason.
package struct TextPattern: Sendable {
    /// The largest program a pattern may compile to: `a{1000}` is 1,000.
    package static let maximumProgram = 2_000
    /// A text is matched over its first this many Unicode scalars (a
    /// line's or title's length is capped before a pattern sees it).
    package static let maximumText = 16 * 1024

    /// The pattern as given.
    package let source: String
    private let program: [Instruction]
    private let ignoresCase: Bool
    /// Where a match can start (`Simulation.starts(of:)`): the simulation
    /// skips the rest of a line that cannot match.
    private let anchored: Bool
    private let firstScalars: Set<Unicode.Scalar>?

    /// Compiles `source`; the error names the place and what is wrong.
    package init(_ source: String) throws(TextPatternError) {
        self.source = source
        var parser = Parser(Array(source.unicodeScalars))
        let tree = try parser.parse()
        ignoresCase = parser.ignoresCase
        var compiler = Compiler(ignoresCase: ignoresCase)
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
        (anchored, firstScalars) = Simulation.starts(of: program)
    }

    /// Whether the pattern matches anywhere in `text`.
    /// A text longer than ``maximumText`` is matched over its beginning,
    /// where `$` does not match (the text goes on).
    package func matches<S: StringProtocol>(_ text: S) -> Bool {
        var scalars = Array(text.unicodeScalars.prefix(Self.maximumText + 1))
        let cut = scalars.count > Self.maximumText
        if cut { scalars.removeLast() }
        if ignoresCase { scalars = scalars.map(Self.lowercased) }
        return Simulation(
            program: program, text: scalars, ignoresCase: ignoresCase, endsText: !cut, anchored: anchored, firstScalars: firstScalars
        ).run()
    }

    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }
}

// MARK: - The program

extension TextPattern {
    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case set(ScalarSet)
        case textStart
        case textEnd
        case wordBoundary(Bool)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    /// A bracket expression or class escape: ranges, classes, negation.
    struct ScalarSet: Sendable {
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [Character] = []  // d, w, s and their negations D, W, S
        var negated = false

        func contains(_ scalar: Unicode.Scalar, ignoringCase: Bool) -> Bool {
            var found = holds(scalar)
            if !found, ignoringCase {
                let upper = scalar.properties.uppercaseMapping.unicodeScalars
                if upper.count == 1, let other = upper.first { found = holds(other) }
            }
            return found != negated
        }

        private func holds(_ scalar: Unicode.Scalar) -> Bool {
            if ranges.contains(where: { $0.contains(scalar.value) }) { return true }
            return classes.contains { ScalarSet.inClass($0, scalar) }
        }

        static func inClass(_ name: Character, _ scalar: Unicode.Scalar) -> Bool {
            switch name {
            case "d": return scalar.properties.numericType == .decimal
            case "D": return scalar.properties.numericType != .decimal
            case "w": return isWord(scalar)
            case "W": return !isWord(scalar)
            case "s": return scalar.properties.isWhitespace
            default: return !scalar.properties.isWhitespace
            }
        }

        static func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
        }
    }

    indirect enum Node {
        case empty
        case atom(Instruction)
        case sequence([Node])
        case choice([Node])
        case repeated(Node, min: Int, max: Int?)
    }
}

/// Why a ready probe's pattern (`TextPattern`) cannot be used: where in
/// the pattern, and what is wrong there.
package struct TextPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset (in Unicode scalars) where the problem was found.
    package let offset: Int
    /// What is wrong, in words a user can act on.
    package let reason: String

    package init(offset: Int, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    package var description: String { "\(reason) (at character \(offset + 1))" }
}
