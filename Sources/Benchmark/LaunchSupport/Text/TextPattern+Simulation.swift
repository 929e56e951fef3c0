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
