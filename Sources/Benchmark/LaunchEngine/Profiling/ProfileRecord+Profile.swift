import LaunchAnalysis
import LaunchSupport

extension ProfileRecord {
    /// The record of a profile and the files it was written to.
    package init(target: String, profile: SymbolizedProfile, flameGraph: String, speedscope: String, folded: String) {
        self.init(
            target: target, launches: profile.runCount, samples: profile.sampleCount, weight: profile.totalWeight,
            rateHz: Int(profile.sampling.rate), hottest: HotFrame.hottest(in: profile, limit: 10),
            flameGraph: flameGraph, speedscope: speedscope, folded: folded,
            warnings: profile.warnings.map { ResultWarning(.symbolization, $0) },
            clock: profile.sampling.timerMode == .threadWallClock ? "wall" : "cpu")
    }
}

extension ProfileRecord.HotFrame {
    /// The functions of `profile` by self weight, heaviest first.
    package static func hottest(in profile: SymbolizedProfile, limit: Int) -> [Self] {
        let total = max(profile.totalWeight, 1)
        return ProfileSummary.hottest(profile, limit: limit).map { frame, weight in
            Self(name: frame.name, module: frame.module, weight: weight, share: Double(weight) / Double(total))
        }
    }

    /// "; hottest (self): f 61.0%, g 12.5%" (short names), or "" for none:
    /// one clause for a line of text.
    public static func clause(_ frames: some Sequence<Self>) -> String {
        let items = frames.map { "\(FunctionName.short($0.name)) \(HumanUnits.fixed($0.share * 100, decimals: 1))%" }
        return items.isEmpty ? "" : "; hottest (self): " + items.joined(separator: ", ")
    }
}
