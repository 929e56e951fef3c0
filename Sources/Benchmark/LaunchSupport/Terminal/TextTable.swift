/// Aligns cells into columns for the terminal. Widths count characters, which
/// is right for the symbols reports use (µ, …, ±, ×, box drawing).
package struct TextTable {
    package enum Alignment { case left, right }

    var alignments: [Alignment]
    var rows: [[String]] = []

    package init(alignments: [Alignment]) { self.alignments = alignments }

    package mutating func append(_ row: [String]) { rows.append(row) }

    /// The rows as lines, columns separated by two spaces, trailing spaces trimmed.
    /// `style(row, column, padded)` may wrap a padded cell in colour codes.
    package func lines(style: (Int, Int, String) -> String = { $2 }) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.enumerated().map { rowIndex, row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let alignment = column < alignments.count ? alignments[column] : .left
                return style(rowIndex, column, alignment == .left ? cell + padding : padding + cell)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
