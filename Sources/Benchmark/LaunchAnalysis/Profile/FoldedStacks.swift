/// Folded stacks, the format of flamegraph.pl and inferno: one line per
/// distinct stack, frames from root to leaf joined by ';', then a space and
/// the weight (samples, overruns included). Sorted, so output is stable.
package enum FoldedStacks {
    /// Frame names with ';' or newlines would break the format: replaced.
    package static func clean(_ name: String) -> String {
        String(name.map { $0 == ";" ? ":" : ($0 == "\n" || $0 == "\r" ? " " : $0) })
    }

    /// (stack as names root first, weight), merged and sorted.
    package static func stacks(of profile: SymbolizedProfile) -> [(frames: [String], weight: UInt64)] {
        var merged: [[Int]: UInt64] = [:]
        for stack in profile.stacks { merged[stack.frames, default: 0] += UInt64(stack.weight) }
        return merged.map { (frames: $0.key.map { clean(profile.frames[$0].name) }, weight: $0.value) }
            .sorted { $0.frames.lexicographicallyPrecedes($1.frames) }
    }

    /// `profile` as folded stacks: one line per distinct stack, frames joined by `;`, then its weight.
    package static func text(of profile: SymbolizedProfile) -> String {
        stacks(of: profile).map { "\($0.frames.joined(separator: ";")) \($0.weight)\n" }.joined()
    }
}
