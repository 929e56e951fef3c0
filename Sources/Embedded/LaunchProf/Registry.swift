import CLaunchProfSupport

/// Process-wide tables that are written rarely: interned names, categories
/// and launch milestones. Guarded by one lock; never touched on the hot path.
package final class Registry: Sendable {
    package static let shared = Registry()

    private struct State {
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        // Index 0: events recorded without a Signposter (LaunchTracker's).
        var categories: [(subsystem: String, category: String)] = [("launchprof", "launch")]
        var categoryIndex: [String: UInt16] = ["launchprof\u{0}launch": 0]
    }

    private let state = Locked(State())

    func intern(_ name: String) -> Int {
        state.withLock { state in
            if let index = state.nameIndex[name] { return index }
            state.names.append(name)
            state.nameIndex[name] = state.names.count - 1
            return state.names.count - 1
        }
    }

    func internedName(_ index: Int) -> String? {
        state.withLock { state in state.names.indices.contains(index) ? state.names[index] : nil }
    }

    /// The index of (subsystem, category); past 65535 categories, all share the last.
    package func category(subsystem: String, category: String) -> UInt16 {
        let key = subsystem + "\u{0}" + category
        return state.withLock { state in
            if let index = state.categoryIndex[key] { return index }
            guard state.categories.count < Int(UInt16.max) else { return UInt16.max - 1 }
            state.categories.append((subsystem, category))
            let index = UInt16(state.categories.count - 1)
            state.categoryIndex[key] = index
            return index
        }
    }

    var categories: [(subsystem: String, category: String)] {
        state.withLock { $0.categories }
    }
}
