import LaunchProf

/// The dependency graph of a registry's items, for finding cycles.
struct PrewarmGraph {
    let nodes: [PrewarmNode]
    let byName: [String: PrewarmNode]

    private enum Mark { case visiting, done }

    /// The first cycle found (items in registration order, dependencies in
    /// declared order), as a path that starts and ends at the same item:
    /// `["config", "cache", "config"]`. Unknown dependencies are skipped.
    func firstCycle() -> [String]? {
        var marks: [String: Mark] = [:]
        var path: [String] = []

        func visit(_ node: PrewarmNode) -> [String]? {
            switch marks[node.name] {
            case .done: return nil
            case .visiting:
                let start = path.firstIndex(of: node.name)!
                return Array(path[start...]) + [node.name]
            case nil: break
            }
            marks[node.name] = .visiting
            path.append(node.name)
            for dependency in node.dependencies {
                guard let next = byName[dependency] else { continue }
                if let cycle = visit(next) { return cycle }
            }
            path.removeLast()
            marks[node.name] = .done
            return nil
        }

        for node in nodes {
            if let cycle = visit(node) { return cycle }
        }
        return nil
    }
}
