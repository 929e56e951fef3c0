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
    }

    /// Whether the pattern matches anywhere in `text`.
    /// A text longer than ``maximumText`` is matched over its beginning,
    /// where `$` does not match (the text goes on).
    package func matches<S: StringProtocol>(_ text: S) -> Bool {
        var scalars = Array(text.unicodeScalars.prefix(Self.maximumText + 1))
        let cut = scalars.count > Self.maximumText
        if cut { scalars.removeLast() }
        if ignoresCase { scalars = scalars.map(Self.lowercased) }
        return Simulation(program: program, text: scalars, ignoresCase: ignoresCase, endsText: !cut).run()
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

// MARK: - Parsing

extension TextPattern {
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var ignoresCase = false

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func parse() throws(TextPatternError) -> Node {
            if scalars.starts(with: Array("(?i)".unicodeScalars)) {
                ignoresCase = true
                position = 4
            }
            let tree = try choice()
            if position < scalars.count { throw TextPatternError(offset: position, "unbalanced ')'") }
            return tree
        }

        private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private mutating func choice() throws(TextPatternError) -> Node {
            var branches = [try sequence()]
            while next == "|" {
                position += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .choice(branches)
        }

        private mutating func sequence() throws(TextPatternError) -> Node {
            var items: [Node] = []
            while let scalar = next, scalar != "|", scalar != ")" {
                var item = try atom()
                while let quantifier = try self.quantifier() {
                    item = .repeated(item, min: quantifier.min, max: quantifier.max)
                }
                items.append(item)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        private mutating func quantifier() throws(TextPatternError) -> (min: Int, max: Int?)? {
            guard let scalar = next else { return nil }
            let start = position
            var bounds: (min: Int, max: Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = countedBounds() else { return nil }  // a literal '{'
                bounds = counted
                position -= 1
            default: return nil
            }
            position += 1
            if next == "?" {
                position += 1  // lazy: the same matches exist
            } else if next == "+" {
                throw TextPatternError(offset: position, "possessive quantifiers need backtracking, which launchprof's patterns do not do")
            }
            if let max = bounds.max, max < bounds.min {
                throw TextPatternError(offset: start, "the repetition's maximum is below its minimum")
            }
            if bounds.min > 1_000 || (bounds.max ?? 0) > 1_000 {
                throw TextPatternError(offset: start, "a repetition count over 1,000")
            }
            return bounds
        }

        /// `{n}`, `{n,}`, `{n,m}` at the position, which moves past it; nil
        /// (and the position kept) when it is not one.
        private mutating func countedBounds() -> (min: Int, max: Int?)? {
            var index = position + 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while index < scalars.count, let digit = Int(String(scalars[index])), digits < 6 {
                    value = value * 10 + digit
                    digits += 1
                    index += 1
                }
                return digits > 0 ? value : nil
            }
            guard let min = number() else { return nil }
            var max: Int? = min
            if index < scalars.count, scalars[index] == "," {
                index += 1
                max = number()
            }
            guard index < scalars.count, scalars[index] == "}" else { return nil }
            position = index + 1
            return (min, max)
        }

        private mutating func atom() throws(TextPatternError) -> Node {
            let start = position
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case ".": return .atom(.any)
            case "^": return .atom(.textStart)
            case "$": return .atom(.textEnd)
            case "[": return .atom(.set(try bracket(start)))
            case "\\": return try escape(start)
            case "*", "+", "?":
                throw TextPatternError(offset: start, "'\(scalar)' repeats nothing")
            case "(":
                if next == "?" {
                    position += 1
                    if next == ":" {
                        position += 1
                    } else if next == "<", position + 1 < scalars.count, !["=", "!"].contains(scalars[position + 1]) {
                        while let name = next, name != ">" { position += 1 }
                        guard next == ">" else { throw TextPatternError(offset: start, "a group name without its '>'") }
                        position += 1
                    } else {
                        throw TextPatternError(
                            offset: start,
                            "look-around and inline options other than a leading (?i) need backtracking, which launchprof's patterns do not do"
                        )
                    }
                }
                let inner = try choice()
                guard next == ")" else { throw TextPatternError(offset: start, "a '(' without its ')'") }
                position += 1
                return inner
            default:
                return .atom(.scalar(scalar))
            }
        }

        private mutating func escape(_ start: Int) throws(TextPatternError) -> Node {
            guard let scalar = next else { throw TextPatternError(offset: start, "a '\\' at the end of the pattern") }
            position += 1
            switch scalar {
            case "d", "D", "w", "W", "s", "S":
                return .atom(.set(ScalarSet(classes: [Character(scalar)])))
            case "b": return .atom(.wordBoundary(true))
            case "B": return .atom(.wordBoundary(false))
            default: return .atom(.scalar(try literalEscape(scalar, start)))
            }
        }

        private func literalEscape(_ scalar: Unicode.Scalar, _ start: Int) throws(TextPatternError) -> Unicode.Scalar {
            switch scalar {
            case "t": return "\t"
            case "n": return "\n"
            case "r": return "\r"
            case "1"..."9":
                throw TextPatternError(offset: start, "back-references need backtracking, which launchprof's patterns do not do")
            default:
                guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                    throw TextPatternError(offset: start, "unknown escape '\\\(scalar)'")
                }
                return scalar
            }
        }

        private mutating func bracket(_ start: Int) throws(TextPatternError) -> ScalarSet {
            var set = ScalarSet()
            if next == "^" {
                set.negated = true
                position += 1
            }
            var first = true
            while let scalar = next, scalar != "]" || first {
                first = false
                position += 1
                var low = scalar
                if scalar == "\\" {
                    guard let escaped = next else { break }
                    position += 1
                    if ["d", "D", "w", "W", "s", "S"].contains(escaped) {
                        set.classes.append(Character(escaped))
                        continue
                    }
                    low = try literalEscape(escaped, position - 2)
                }
                if next == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    var high = scalars[position]
                    position += 1
                    if high == "\\", let escaped = next {
                        position += 1
                        high = try literalEscape(escaped, position - 2)
                    }
                    guard low.value <= high.value else { throw TextPatternError(offset: start, "a range whose end is below its start") }
                    set.ranges.append(low.value...high.value)
                } else {
                    set.ranges.append(low.value...low.value)
                }
            }
            guard next == "]" else { throw TextPatternError(offset: start, "a '[' without its ']'") }
            position += 1
            return set
        }
    }
}

// MARK: - Compiling

extension TextPattern {
    struct Compiler {
        let ignoresCase: Bool
        var program: [Instruction] = []

        mutating func emit(_ node: Node) throws(TextPatternError) {
            guard program.count < TextPattern.maximumProgram else {
                throw TextPatternError(
                    offset: 0, "the pattern is too large (over \(TextPattern.maximumProgram) steps once its repetitions are expanded)")
            }
            switch node {
            case .empty: break
            case .atom(.scalar(let scalar)): program.append(.scalar(ignoresCase ? TextPattern.lowercased(scalar) : scalar))
            case .atom(let instruction): program.append(instruction)
            case .sequence(let items): for item in items { try emit(item) }
            case .choice(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = program.count
                        program.append(.split(split + 1, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let item, let min, let max):
                for _ in 0..<min { try emit(item) }
                if let max {
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, 0))
                        try emit(item)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(item)
                    program.append(.jump(split))
                    program[split] = .split(split + 1, program.count)
                }
            }
        }
    }
}

// MARK: - Matching

extension TextPattern {
    /// The NFA run over the text once, all states in step (Thompson).
    struct Simulation {
        let program: [Instruction]
        let text: [Unicode.Scalar]
        let ignoresCase: Bool
        /// Whether the text's end is the end of the text matched (not a cut).
        let endsText: Bool

        func run() -> Bool {
            var current = StateList(capacity: program.count)
            var next = StateList(capacity: program.count)
            for position in 0...text.count {
                // Unanchored: a match may start at every position.
                if add(0, at: position, to: &current) { return true }
                guard position < text.count else { break }
                let scalar = text[position]
                next.clear()
                for pc in current.states {
                    let advances: Bool
                    switch program[pc] {
                    case .scalar(let expected): advances = scalar == expected
                    case .any: advances = scalar != "\n"
                    case .set(let set): advances = set.contains(scalar, ignoringCase: ignoresCase)
                    default: advances = false
                    }
                    if advances, add(pc + 1, at: position + 1, to: &next) { return true }
                }
                swap(&current, &next)
            }
            return false
        }

        /// Adds `pc` and what it reaches without reading (splits, jumps,
        /// assertions true at `position`); true when that reaches a match.
        private func add(_ start: Int, at position: Int, to list: inout StateList) -> Bool {
            var stack = [start]
            while let pc = stack.popLast() {
                guard list.insert(pc) else { continue }
                switch program[pc] {
                case .match: return true
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .textStart: if position == 0 { stack.append(pc + 1) }
                case .textEnd: if endsText, position == text.count { stack.append(pc + 1) }
                case .wordBoundary(let wanted):
                    let before = position > 0 && ScalarSet.isWord(text[position - 1])
                    let after = position < text.count && ScalarSet.isWord(text[position])
                    if (before != after) == wanted { stack.append(pc + 1) }
                default: break
                }
            }
            return false
        }
    }

    /// The states of one step, each once (a sparse set: clearing is O(1)).
    struct StateList {
        private var dense: [Int]
        private var sparse: [Int]
        private(set) var count = 0

        init(capacity: Int) {
            dense = [Int](repeating: 0, count: capacity)
            sparse = [Int](repeating: 0, count: capacity)
        }

        var states: ArraySlice<Int> { dense[0..<count] }

        mutating func insert(_ state: Int) -> Bool {
            let slot = sparse[state]
            if slot < count, dense[slot] == state { return false }
            sparse[state] = count
            dense[count] = state
            count += 1
            return true
        }

        mutating func clear() { count = 0 }
    }
}
