// The runs the Why of a gate adds: more of both sides, side by side as the
// gate's own, through another executor (one that traces them).
extension GateRunner {
    /// `count` more measured runs of each side in ABBA order through
    /// `executor` (no warm-up: the gate's runs warmed both), and why they
    /// stopped short, if they did (a run failed, an interrupt). The runs
    /// before the stop are kept: the Why uses what it has.
    package func moreRuns(
        _ count: Int, through executor: any RunExecutor, startingAt first: (base: Int, head: Int)
    ) -> (base: [RunMeasurement], head: [RunMeasurement], stop: GateStop?) {
        var runner = self
        runner.executor = executor
        var base: [RunMeasurement] = []
        var head: [RunMeasurement] = []
        do throws(Stop) {
            for position in 0..<(2 * Swift.max(0, count)) {
                let side = ABBAOrder.side(at: position)
                let index = side == .base ? first.base + base.count : first.head + head.count
                let measurement = try runner.launch(side, index: index, warmup: false)
                if side == .base { base.append(measurement) } else { head.append(measurement) }
            }
        } catch {
            switch error {
            case .interrupted: return (base, head, .interrupted)
            case .failed(let failure): return (base, head, .failed(failure))
            }
        }
        return (base, head, nil)
    }
}
