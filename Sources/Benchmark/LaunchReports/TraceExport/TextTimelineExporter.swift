import LaunchAnalysis
import LaunchSupport

/// A timeline a person reads in a terminal: a header with the process and
/// what was lost, then one line per event or interval in time order, with
/// times since spawn and since process entry, the thread, the kind, the name
/// and, for intervals, the duration.
///
///     since spawn   since entry  thread                kind        name                  duration
///      +1.204 ms     +0.000 ms   4711 lp-sample-app    entry       process entry
///      +3.880 ms     +2.676 ms   4711 lp-sample-app    slice       read config           0.412 ms
package struct TextTimelineExporter: TraceExporter {
    /// An exporter.
    package init() {}

    package func export(_ trace: Trace) -> String {
        let intervals = trace.pairIntervals()
        let rows = TextTimelineRows(trace: trace, intervals: intervals).rows()
        return header(trace, intervals).joined(separator: "\n") + "\n\n" + table(rows, trace) + "\n"
    }

    private func header(_ trace: Trace, _ intervals: TraceIntervals) -> [String] {
        let header = trace.header
        var lines = [
            "trace \(TerminalText.sanitized(trace.path)) (format \(header.formatVersion))",
            "pid \(header.pid), \(header.eventCount) events, \(header.lostEvents) lost "
                + "(ring of \(header.capacity), \(header.policy))",
        ]
        if header.lostEvents > 0 {
            lines.append("warning: \(header.lostEvents) events were lost; intervals and milestones may be missing")
        }
        let unfinished = (intervals.slices + intervals.asyncIntervals).filter(\.isUnfinished).count
        if unfinished > 0 { lines.append("\(unfinished) intervals never ended (shown to the last event)") }
        if !intervals.unmatchedEnds.isEmpty {
            lines.append("\(intervals.unmatchedEnds.count) interval ends had no begin")
        }
        if header.spawnNanoseconds == nil {
            lines.append("spawn time unknown (not started by launchprof): times since spawn are not available")
        }
        return lines
    }

    private func table(_ rows: [TextTimelineRows.Row], _ trace: Trace) -> String {
        let spawn = trace.header.spawnNanoseconds
        let entry = trace.header.processEntryNanoseconds
        let columns: [[String]] =
            [["since spawn", "since entry", "thread", "kind", "name", "duration"]]
            + rows.map { row in
                [
                    spawn.map { since($0, row.timestamp) } ?? "-",
                    entry.map { since($0, row.timestamp) } ?? "-",
                    row.thread, row.kind, row.name, row.duration ?? "",
                ]
            }
        let widths = (0..<6).map { column in columns.map { $0[column].count }.max() ?? 0 }
        return columns.map { cells in
            let padded = cells.enumerated().map { index, cell in
                // Times are right-aligned so their decimal points line up.
                let fill = String(repeating: " ", count: widths[index] - cell.count)
                return index < 2 ? fill + cell : cell + fill
            }
            return padded.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    private func since(_ origin: UInt64, _ timestamp: UInt64) -> String {
        let text = ExportTimeFormat.milliseconds(from: origin, to: timestamp)
        return (text.hasPrefix("-") ? text : "+" + text) + " ms"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
