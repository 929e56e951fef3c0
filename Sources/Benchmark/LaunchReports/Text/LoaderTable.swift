import Foundation
import LaunchEngine
import LaunchSupport

/// The dynamic loader's time by library, warm and cold side by side: one
/// row per object (largest first), then the launch's totals. The terminal
/// (`explain --loader`) and the HTML report draw the same cells.
package enum LoaderTable {
    /// The column titles; "~" marks the estimated column.
    package static let header = [
        "Library", "Map", "Relocate~", "Init", "Total", "Map (cold)", "Relocate~ (cold)", "Init (cold)", "Total (cold)",
    ]

    /// What the "~" means, and what is measured.
    package static let legend =
        "Map (search + open + mmap) and Init (constructors) are measured; Relocate~ is estimated: "
        + "the measured relocation total, shared by each library's relocation counts. Medians of the launches."

    /// The rows: the `limit` objects with the largest total in either mode,
    /// then one row for the rest, then the launch's totals.
    package static func rows(warm: LoaderProfile?, cold: LoaderProfile?, limit: Int = 15) -> [[String]] {
        var paths: [String] = []
        for profile in [warm, cold].compactMap({ $0 }) {
            for library in profile.libraries where !paths.contains(library.path) { paths.append(library.path) }
        }
        func largest(_ path: String) -> Double {
            max(warm?.libraries.first { $0.path == path }?.total ?? 0, cold?.libraries.first { $0.path == path }?.total ?? 0)
        }
        paths.sort { (largest($0), $1) > (largest($1), $0) }
        func cells(_ library: LoaderProfile.Library?, _ profile: LoaderProfile?) -> [String] {
            guard profile != nil else { return ["", "", "", ""] }
            guard let library else { return ["—", "—", "—", "—"] }
            return [
                library.map.map(HumanUnits.duration) ?? "—", HumanUnits.duration(library.relocate),
                HumanUnits.duration(library.initialize), HumanUnits.duration(library.total),
            ]
        }
        var rows: [[String]] = paths.prefix(limit).map { path in
            [(path as NSString).lastPathComponent]
                + cells(warm?.libraries.first { $0.path == path }, warm) + cells(cold?.libraries.first { $0.path == path }, cold)
        }
        if paths.count > limit {
            let rest = Set(paths.dropFirst(limit))
            func sum(_ profile: LoaderProfile?) -> [String] {
                guard let profile else { return ["", "", "", ""] }
                let libraries = profile.libraries.filter { rest.contains($0.path) }
                return [
                    HumanUnits.duration(libraries.compactMap(\.map).reduce(0, +)),
                    HumanUnits.duration(libraries.map(\.relocate).reduce(0, +)),
                    HumanUnits.duration(libraries.map(\.initialize).reduce(0, +)),
                    HumanUnits.duration(libraries.map(\.total).reduce(0, +)),
                ]
            }
            rows.append(["\(rest.count) more"] + sum(warm) + sum(cold))
        }
        func totals(_ profile: LoaderProfile?) -> [String] {
            guard let profile else { return ["", "", "", ""] }
            return [
                HumanUnits.duration(profile.mapping), HumanUnits.duration(profile.relocation),
                HumanUnits.duration(profile.constructors), HumanUnits.duration(profile.total),
            ]
        }
        rows.append(["all (the loader's pre-main)"] + totals(warm) + totals(cold))
        return rows
    }

    /// The table as terminal lines, with the legend and the launches counted.
    package static func lines(warm: LoaderProfile?, cold: LoaderProfile?, limit: Int = 15) -> [String] {
        var table = TextTable(alignments: [.left] + Array(repeating: .right, count: 8))
        let columns = cold == nil ? 5 : 9
        table.append(Array(header.prefix(columns)))
        for row in rows(warm: warm, cold: cold, limit: limit) { table.append(Array(row.prefix(columns))) }
        var lines = table.lines()
        let counted = [warm.map { "\($0.launches) warm" }, cold.map { "\($0.launches) cold" }].compactMap { $0 }
        lines.append("\(legend) (\(counted.joined(separator: ", ")) launches)")
        for profile in [warm, cold].compactMap({ $0 }) {
            if let program = profile.programInit, program > 0 {
                lines.append(
                    "\(profile.mode.rawValue): the program's own constructors \(HumanUnits.duration(program)), in Init of (the program)")
            }
            lines += profile.notes.map { "\(profile.mode.rawValue): \($0)" }
        }
        return lines
    }
}
