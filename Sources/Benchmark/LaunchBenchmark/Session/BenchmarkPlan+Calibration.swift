import LaunchEngine

extension BenchmarkPlan {
    /// This plan with the calibration target last, in every mode the plan
    /// runs, with the plan's default warm-up and stopping rule: interleaved
    /// run by run with the targets.
    func calibrated() -> BenchmarkPlan {
        var plan = self
        let calibration = Calibration.target
        plan.targets.append(calibration)
        plan.schedules[calibration.name] = TargetSchedule(modes: LaunchMode.allCases.filter { allModes.contains($0) })
        return plan
    }
}
