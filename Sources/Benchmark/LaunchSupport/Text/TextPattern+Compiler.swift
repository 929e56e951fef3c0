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
