extension Duration {
    /// The duration in whole nanoseconds, saturated: a negative duration is
    /// zero and one past `UInt64.max` nanoseconds (about 584 years) is
    /// `UInt64.max`. The one conversion every deadline and interval of
    /// launchprof and its libraries uses, so they all treat an absurd
    /// duration alike: as "never".
    package var saturatingNanoseconds: UInt64 {
        guard self > .zero else { return 0 }
        // Positive: both components are non-negative.
        let (seconds, attoseconds) = components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return UInt64.max }
        let (total, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return carry ? UInt64.max : total
    }
}
