extension TextPattern {
    /// The NFA run over the text once, all states in step (Thompson).
    struct Simulation {
        let program: [Instruction]
        let text: [Unicode.Scalar]
        let ignoresCase: Bool
        /// Whether the text's end is the end of the text matched (not a cut).
        let endsText: Bool

        /// The pattern starts with `^` outside any alternation: a match
        /// can only start at position 0.
        let anchored: Bool
        /// Every match starts with one of these scalars (nil: not known, as
        /// for `.`, a set or an assertion first): positions where no state
        /// is live and the text's scalar is not one of them are skipped.
        let firstScalars: Set<Unicode.Scalar>?

        func run() -> Bool {
            var current = StateList(capacity: program.count)
            var next = StateList(capacity: program.count)
            var stack: [Int] = []
            stack.reserveCapacity(program.count)
            var position = 0
            while position <= text.count {
                if current.count == 0 {
                    // Nothing live: only a new start can match from here.
                    if anchored, position > 0 { return false }
                    if let firstScalars {
                        while position < text.count, !firstScalars.contains(text[position]) { position += 1 }
                        if position == text.count { return false }
                    }
                }
                // Unanchored: a match may start at every position.
                if !anchored || position == 0, add(0, at: position, to: &current, stack: &stack) { return true }
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
                    if advances, add(pc + 1, at: position + 1, to: &next, stack: &stack) { return true }
                }
                swap(&current, &next)
                position += 1
            }
            return false
        }

        /// Adds `pc` and what it reaches without reading (splits, jumps,
        /// assertions true at `position`); true when that reaches a match.
        /// `stack` is scratch space, reused from call to call.
        private func add(_ start: Int, at position: Int, to list: inout StateList, stack: inout [Int]) -> Bool {
            stack.removeAll(keepingCapacity: true)
            stack.append(start)
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

        /// What a match must start with, from the program alone: whether it
        /// is anchored at the text's start, and the scalars every match's
        /// first step reads (nil when any state reachable without reading is
        /// not a literal scalar).
        static func starts(of program: [Instruction]) -> (anchored: Bool, firstScalars: Set<Unicode.Scalar>?) {
            if case .textStart = program.first { return (true, nil) }
            var scalars = Set<Unicode.Scalar>()
            var seen = Set<Int>()
            var stack = [0]
            while let pc = stack.popLast() {
                guard seen.insert(pc).inserted else { continue }
                switch program[pc] {
                case .scalar(let scalar): scalars.insert(scalar)
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(first)
                    stack.append(second)
                default: return (false, nil)  // a match, any, a set or an assertion
                }
            }
            return (false, scalars)
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
