/// Places labels beside marks on one axis so that no two overlap: each label
/// goes right of its mark (left when it would run past the end), and labels
/// that would collide go to further lanes (rows), as few as possible.
///
/// Greedy by left edge, each label into the first lane where it fits: for
/// fixed boxes that is the interval-graph colouring, which needs exactly as
/// many lanes as the most boxes over any one point, the fewest possible.
package struct LabelPlacer: Sendable {
    /// A label to place: its mark's position and its width, in pixels.
    package struct Label: Sendable, Equatable {
        package var anchor: Double
        package var width: Double

        package init(anchor: Double, width: Double) {
            self.anchor = anchor
            self.width = width
        }
    }

    /// Where a label went: its left edge and its lane (0 nearest the axis).
    package struct Placement: Sendable, Equatable {
        package var start: Double
        package var lane: Int
        package var width: Double
        package var end: Double { start + width }
    }

    /// The space labels may use.
    package var bounds: ClosedRange<Double>
    /// Space between a mark and its label.
    package var offset: Double = 3
    /// Least space between two labels in one lane.
    package var gap: Double = 6

    package init(bounds: ClosedRange<Double>) { self.bounds = bounds }

    /// One placement per label, in the order given.
    package func place(_ labels: [Label]) -> [Placement] {
        let boxes = labels.map(box)
        let order = boxes.indices.sorted { (boxes[$0], $0) < (boxes[$1], $1) }
        var laneEnds: [Double] = []
        var placements = [Placement](repeating: Placement(start: 0, lane: 0, width: 0), count: labels.count)
        for index in order {
            let start = boxes[index]
            let width = labels[index].width
            let lane = laneEnds.firstIndex { $0 + gap <= start } ?? laneEnds.count
            if lane == laneEnds.count { laneEnds.append(start + width) } else { laneEnds[lane] = start + width }
            placements[index] = Placement(start: start, lane: lane, width: width)
        }
        return placements
    }

    /// The left edge: right of the mark, or left of it when that would run
    /// past the end, kept within the bounds.
    private func box(_ label: Label) -> Double {
        var start = label.anchor + offset
        if start + label.width > bounds.upperBound { start = label.anchor - offset - label.width }
        return min(max(start, bounds.lowerBound), max(bounds.lowerBound, bounds.upperBound - label.width))
    }
}
