import Foundation

/// Change points in a series (a metric's medians over commits) by
/// E-divisive means with a Student's t significance test, as Hunter and
/// Apache Otava find them.
///
/// - **Candidates** (Matteson & James, "A Nonparametric Approach for
///   Multiple Change Point Analysis of Multivariate Data", JASA 2014,
///   doi:10.1080/01621459.2013.849605): in a segment, the split τ (and end
///   κ) that maximize the energy statistic
///   Q̂(X, Y) = 2/(m+n)·Σ|Xᵢ−Yⱼ| − 2m/((m+n)(n−1))·Σᵢ<ₖ|Xᵢ−Xₖ| − 2n/((m+n)(m−1))·Σⱼ<ₖ|Yⱼ−Yₖ|
///   (α = 1), X = the segment's first n points, Y the next m. The best
///   candidate of all segments is tested; if significant it splits its
///   segment and the search goes on, else it stops.
/// - **Significance**: a two-sided Student's t-test (`StudentTTest`,
///   variances with divisor n as Otava takes them: on 30 generated series
///   the textbook n − 1 missed 61 of 270 shifts where this misses 56)
///   between the points either side of the candidate, within its segment,
///   in place of Matteson & James's permutation test (Fleming et al.,
///   "Hunter: Using Change Point Detection to Hunt for Performance
///   Regressions", ICPE 2023, doi:10.1145/3578244.3583719): deterministic,
///   and sound with few points.
/// - **Split**: windows of ``windowLength`` points, moving by half a
///   window, each searched at a p-value ten times looser
///   (`otava/analysis.py`, `split`, `compute_change_points`); the union of
///   what they find are the weak change points.
/// - **Merge** (`otava/analysis.py`, `merge`): each weak change point is
///   retested between its neighbours; the weakest (the highest p-value
///   above ``maxPValue``, else the smallest change below the floor) is
///   removed and its neighbours retested, until every one left is
///   significant and large enough. Otava retests the two after a removed
///   point; the one before it changes too, and is retested here.
/// - **The series' own noise** (what Otava lacks): a change smaller than
///   the noise of the series, σ̂ = 1.4826·median|xᵢ − xᵢ₋₁|/√2 (the MAD of
///   successive differences; differences cancel the level, so steps barely
///   move it: von Neumann et al. 1941, Rousseeuw & Croux 1993), is not a
///   change point, whatever its p-value: with many points a t-test finds
///   shifts nobody can act on.
package struct EDivisiveMeans: Sendable, Equatable {
    /// Points per window of the split step (Otava's `AnalysisOptions` default: 50).
    package var windowLength: Int
    /// A change point's largest p-value (Otava's default 0.001).
    package var maxPValue: Double
    /// The smallest relative change of the median kept (0: no floor but the noise).
    package var minimumChange: Double
    /// How many noise standard deviations the median must move (1: as
    /// large as the noise).
    package var noiseMultiple: Double

    /// A detector with these parameters.
    package init(windowLength: Int = 50, maxPValue: Double = 0.001, minimumChange: Double = 0, noiseMultiple: Double = 1) {
        self.windowLength = min(EnergyStatistic.largestSegment, max(4, windowLength))
        self.maxPValue = min(1, max(0, maxPValue))
        self.minimumChange = max(0, minimumChange)
        self.noiseMultiple = max(0, noiseMultiple)
    }

    /// One change point found: the series moved at ``index``.
    package struct ChangePoint: Sendable, Equatable {
        /// The first point after the change.
        package var index: Int
        /// The t-test between the segments either side (the previous change
        /// point to this one, this one to the next).
        package var test: StudentTTest
        /// The median of the segment before.
        package var medianBefore: Double
        /// The median of the segment after.
        package var medianAfter: Double
        /// The series' noise (σ̂ of successive differences) it was held to.
        package var noise: Double

        /// (after − before) / before; 0 when before is 0.
        package var relativeChange: Double { medianBefore == 0 ? 0 : medianAfter / medianBefore - 1 }
    }

    /// The change points of `series`, oldest first. Not-finite values are
    /// the caller's to refuse: results are checked as they are read.
    package func changePoints(in series: [Double]) -> [ChangePoint] {
        guard series.count >= 3 else { return [] }
        let noise = Self.noise(of: series)
        let firstPass = maxPValue < 0.05 ? maxPValue * 10 : (maxPValue < 0.5 ? maxPValue * 2 : maxPValue)
        var indices = split(series, maxPValue: firstPass)
        return merge(&indices, series, noise: noise)
    }

    /// σ̂ = 1.4826 · median |xᵢ − xᵢ₋₁| / √2; 0 for fewer than two points.
    package static func noise(of series: [Double]) -> Double {
        guard series.count >= 2 else { return 0 }
        let differences = zip(series.dropFirst(), series).map { abs($0 - $1) }
        return 1.4826 * (Statistics.median(differences) ?? 0) / 2.0.squareRoot()
    }

    // MARK: - Split

    /// The weak change points: each window searched on its own, the union kept.
    private func split(_ series: [Double], maxPValue: Double) -> [Int] {
        var found = Set<Int>()
        var start = 0
        let step = windowLength / 2
        while start < series.count {
            let end = min(start + windowLength, series.count)
            let local = Self.divisive(series[start..<end], maxPValue: maxPValue)  // a slice keeps the series' indices
            found.formUnion(local)
            start = max(local.max() ?? 0, start + step)
        }
        return found.sorted()
    }

    /// E-divisive over one window: the best candidate of all segments,
    /// tested; stop at the first that is not significant.
    static func divisive(_ window: ArraySlice<Double>, maxPValue: Double) -> [Int] {
        var cuts: [Int] = []  // absolute indices into the window's base
        while true {
            let bounds = [window.startIndex] + cuts + [window.endIndex]
            var best: (index: Int, q: Double, segment: Range<Int>)?
            for (lower, upper) in zip(bounds, bounds.dropFirst()) where upper - lower > 1 {
                guard let candidate = EnergyStatistic.bestSplit(window[lower..<upper]) else { continue }
                if candidate.q > best?.q ?? -.infinity { best = (candidate.index, candidate.q, lower..<upper) }
            }
            guard let best else { break }
            let test = StudentTTest(
                window[best.segment.lowerBound..<best.index], window[best.index..<best.segment.upperBound],
                varianceDivisor: .count)
            guard test.pValue <= maxPValue else { break }
            cuts.append(best.index)
            cuts.sort()
        }
        return cuts
    }

    // MARK: - Merge

    /// Removes the weakest change point until all left pass.
    private func merge(_ indices: inout [Int], _ series: [Double], noise: Double) -> [ChangePoint] {
        var points = indices.indices.map { evaluate($0, indices, series, noise: noise) }
        while !points.isEmpty {
            let weakest: Int
            if let worst = points.indices.max(by: { points[$0].test.pValue < points[$1].test.pValue }),
                points[worst].test.pValue > maxPValue
            {
                weakest = worst
            } else if let smallest = points.indices.min(by: { shortfall(points[$0]) < shortfall(points[$1]) }),
                shortfall(points[smallest]) < 1
            {
                weakest = smallest
            } else {
                break
            }
            indices.remove(at: weakest)
            points.remove(at: weakest)
            // The neighbours' segments grew: retest both.
            for neighbour in [weakest - 1, weakest] where points.indices.contains(neighbour) {
                points[neighbour] = evaluate(neighbour, indices, series, noise: noise)
            }
        }
        return points
    }

    /// How large the change is against its floor (the noise and the
    /// relative minimum): 1 or more passes.
    private func shortfall(_ point: ChangePoint) -> Double {
        let change = abs(point.medianAfter - point.medianBefore)
        let floor = max(noiseMultiple * point.noise, minimumChange * abs(point.medianBefore))
        guard floor > 0 else { return change > 0 ? .infinity : 0 }
        return change / floor
    }

    /// The change point `indices[position]` tested between its neighbours.
    private func evaluate(_ position: Int, _ indices: [Int], _ series: [Double], noise: Double) -> ChangePoint {
        let lower = position == 0 ? 0 : indices[position - 1]
        let upper = position + 1 < indices.count ? indices[position + 1] : series.count
        let index = indices[position]
        let before = series[lower..<index], after = series[index..<upper]
        return ChangePoint(
            index: index, test: StudentTTest(before, after, varianceDivisor: .count),
            medianBefore: Statistics.median(Array(before)) ?? 0, medianAfter: Statistics.median(Array(after)) ?? 0,
            noise: noise)
    }
}
