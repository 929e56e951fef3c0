/// Outliers by distance from the median in units of the median absolute
/// deviation (a robust rule: Iglewicz & Hoaglin, *How to Detect and Handle
/// Outliers*, 1993, whose modified z-score is 0.6745·(x − median)/MAD).
///
/// A value is an outlier when |x − median| > `madMultiple`·MAD. The default 5
/// corresponds to a modified z-score of 3.37, a little stricter than Iglewicz
/// & Hoaglin's 3.5 (5.19 MAD); hyperfine uses the same score with a looser 14.
///
/// MAD == 0 (more than half the values are identical, e.g. an all-equal
/// sample or a coarse clock) leaves no scale to measure distance with: no value
/// is called an outlier then, rather than every value that differs at all.
package struct OutlierDetection: Sendable, Equatable {
    /// How many median absolute deviations from the median make a run an outlier.
    package var madMultiple: Double

    /// A detector at `madMultiple` MADs.
    package init(madMultiple: Double = 5) {
        self.madMultiple = madMultiple
    }

    /// The modified z-score of `value` in a sample with this median and MAD;
    /// nil when MAD is 0.
    package static func modifiedZScore(_ value: Double, median: Double, mad: Double) -> Double? {
        mad > 0 ? 0.6745 * (value - median) / mad : nil
    }

    /// Positions (into `values`) of the outliers, in order; empty when the
    /// sample is empty or its MAD is 0.
    package func outlierPositions(in values: [Double]) -> [Int] {
        guard let median = Statistics.median(values), let mad = Statistics.medianAbsoluteDeviation(values), mad > 0
        else { return [] }
        return values.indices.filter { abs(values[$0] - median) > madMultiple * mad }
    }
}
