import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The pieces charts are built from: escaping, label placement, axes.
@Suite struct ReportChartPartsTests {
    @Test func escapingKeepsMarkupInertAndFreeOfAddresses() {
        #expect(MarkupText.escape(#"<a href="x">&'"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        #expect(MarkupText.escape("see https://example.com/a") == "see https&#58;&#47;&#47;example.com/a")
        #expect(MarkupText.escape("//share") == "&#47;&#47;share")
        #expect(MarkupText.escape("/usr/bin/a b:c") == "/usr/bin/a b:c")
        #expect(MarkupText.escape("bell\u{7}tab\tend\u{FFFE}") == "bell\u{FFFD}tab&#9;end\u{FFFD}")
        // Whitespace an attribute value would lose to normalization stays, as references.
        #expect(MarkupText.escape("a\nb\r\tc") == "a&#10;b&#13;&#9;c")
        #expect(MarkupText.escape("µs → ready ✓") == "µs → ready ✓")
    }

    @Test func theInspectionRejectsMalformedMarkup() {
        #expect(MarkupInspection.parse("<p><b>x</p></b>").error != nil)
        #expect(MarkupInspection.parse("<p>a & b</p>").error != nil)
        #expect(MarkupInspection.parse("<p>a &amp; b</p>").error == nil)
    }

    @Test func labelsInOneLaneNeverOverlapAndStayInBounds() {
        var generator = SeededGenerator(seed: 8)
        for round in 0..<200 {
            let count = Int.random(in: 1...40, using: &generator)
            let labels = (0..<count).map { _ in
                LabelPlacer.Label(
                    anchor: Double.random(in: 0...1000, using: &generator), width: Double.random(in: 10...220, using: &generator))
            }
            var placer = LabelPlacer(bounds: 0...1000)
            placer.gap = 6
            let placements = placer.place(labels)
            #expect(placements.count == labels.count)
            for (index, placement) in placements.enumerated() {
                #expect(placement.start >= 0 && placement.end <= 1000, "round \(round): label \(index) out of bounds")
                for other in placements[(index + 1)...] where other.lane == placement.lane {
                    #expect(other.end + 6 <= placement.start || placement.end + 6 <= other.start, "round \(round): overlap")
                }
            }
        }
    }

    @Test func labelsUseTheFewestLanesAndFlipAtTheEnd() {
        let placer = LabelPlacer(bounds: 0...300)
        // Three labels over one point need three lanes; a fourth far away reuses lane 0.
        let placements = placer.place([
            .init(anchor: 10, width: 50), .init(anchor: 12, width: 50), .init(anchor: 14, width: 50), .init(anchor: 200, width: 50),
        ])
        #expect(placements.map(\.lane) == [0, 1, 2, 0])
        #expect(placements[0].start == 13)  // right of its mark, `offset` away
        let end = placer.place([.init(anchor: 290, width: 60)])
        #expect(end[0].end == 287)  // would run past the end: left of its mark
    }

    @Test func axesHaveRoundTicksInOneUnit() {
        let time = LinearScale(upTo: 114_300_000, unit: .nanoseconds, range: 0...600)
        #expect(time.ticks.first == 0 && time.ticks.last! >= 114_300_000)
        #expect(time.tickLabels == ["0", "20 ms", "40 ms", "60 ms", "80 ms", "100 ms", "120 ms"])
        #expect(time(0) == 0 && time(120_000_000) == 600)
        let fine = LinearScale(upTo: 2_300_000, unit: .nanoseconds, range: 0...100, tickCount: 5)
        #expect(fine.tickLabels == ["0", "0.5 ms", "1.0 ms", "1.5 ms", "2.0 ms", "2.5 ms"])
        let bytes = LinearScale(upTo: 25 * 1_048_576, unit: .bytes, range: 0...100, tickCount: 5)
        #expect(bytes.tickLabels == ["0", "5 MiB", "10 MiB", "15 MiB", "20 MiB", "25 MiB"])
        let empty = LinearScale(upTo: 0, unit: .count, range: 0...100)
        #expect(empty.ticks.count >= 2)  // an all-zero sample still gets an axis
    }

    @Test func longLabelsAreShortenedToFit() {
        let text = String(repeating: "warm cache ", count: 20)
        let fitted = TextMeasure.fitted(text, width: 120)
        #expect(fitted.hasSuffix("…") && TextMeasure.width(fitted) <= 120)
        #expect(TextMeasure.fitted("main", width: 120) == "main")
        #expect(TextMeasure.width("mmmm") > TextMeasure.width("iiii"))
    }
}
