import LaunchAnalysis
import LaunchEngine

/// Samples in the Chrome export: one thread-scoped instant per sample, on
/// the sampled thread's own track, named after its leaf function, with the
/// whole stack (root first) and the module in `args` — so one timeline shows
/// milestones, intervals and where the CPU was between them. A sample that
/// stood for periods without a stack of their own (a merged signal) has a
/// second instant beside it, "[periods without a stack]", of their weight.
extension ChromeEventList {
    /// Category of the sample instants.
    static let samplesCategory = "launchprof/samples"

    mutating func addSamples() {
        guard trace.sampling != nil, let profile = try? Symbolizer().symbolize(trace, name: "trace") else { return }
        for stack in profile.stacks {
            guard let leaf = stack.frames.last.map({ profile.frames[$0] }) else { continue }
            let frames = stack.frames.map { FoldedStacks.clean(profile.frames[$0].name) }.joined(separator: ";")
            add(
                stack.timestamp, rank: 3,
                fields: [
                    ("name", JSONText.string(leaf.name)), ("cat", JSONText.string(Self.samplesCategory)), ("ph", "\"i\""),
                    ("ts", ts(stack.timestamp)), ("s", "\"t\""), ("pid", String(trace.header.pid)),
                    ("tid", String(stack.threadID)),
                    (
                        "args",
                        JSONText.object([
                            ("module", JSONText.string(leaf.module)), ("weight", String(stack.weight)),
                            ("stack", JSONText.string(frames)),
                        ])
                    ),
                ])
        }
    }
}
