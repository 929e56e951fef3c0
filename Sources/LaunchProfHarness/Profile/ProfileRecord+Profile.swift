extension ProfileRecord {
    /// The record of a profile and the files it was written to.
    public init(target: String, profile: SymbolizedProfile, flameGraph: String, speedscope: String, folded: String) {
        let total = max(profile.totalWeight, 1)
        self.init(
            target: target, launches: profile.runCount, samples: profile.stacks.count, weight: profile.totalWeight,
            rateHz: Int(profile.sampling.rate),
            hottest: ProfileSummary.hottest(profile, limit: 10).map { frame, weight in
                HotFrame(name: frame.name, module: frame.module, weight: weight, share: Double(weight) / Double(total))
            },
            flameGraph: flameGraph, speedscope: speedscope, folded: folded, warnings: profile.warnings)
    }
}
