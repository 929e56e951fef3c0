import LaunchSupport

extension LaunchInsights {
    /// What explain says of a result with no finding: that nothing stands
    /// out, with the numbers it looked at, when runs succeeded; that there
    /// was nothing to explain when none did.
    package static func nothingStandsOut(in result: BenchmarkResult) -> String {
        let runs = result.runs.filter(\.exit.isSuccess)
        guard !runs.isEmpty else { return "no successful run to explain (\(result.runs.count) runs, none succeeded)" }
        var numbers = ["\(runs.count) successful run\(runs.count == 1 ? "" : "s")"]
        if let ready = median(runs.compactMap { $0.wallToReady.map { Double($0) } }) {
            numbers.append("time to ready \(HumanUnits.duration(ready))")
            if let cpu = median(runs.map { Double($0.userCPU + $0.systemCPU) }) {
                numbers.append("CPU \(HumanUnits.duration(cpu)) (\(HumanUnits.percent(ready > 0 ? cpu / ready : 0)) of it)")
            }
        } else {
            numbers.append("none reached ready")
        }
        if let entry = median(runs.compactMap { $0.processEntry.map { Double($0) } }) {
            numbers.append("process entry at \(HumanUnits.duration(entry))")
        }
        return "nothing stands out: " + numbers.joined(separator: ", ")
    }

    /// What explain cannot say without a trace, and what it needs for it.
    package static let withoutTrace =
        "without a trace, nothing on the critical path or the work off it: give --trace TRACE "
        + "('launchprof record', with --ready for a program that stays up)"
}
