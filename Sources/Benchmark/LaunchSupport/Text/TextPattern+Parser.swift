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
