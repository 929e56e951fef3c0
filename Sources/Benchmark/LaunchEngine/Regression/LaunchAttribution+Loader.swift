import Foundation
import LaunchSupport

extension LaunchAttribution {
    /// How the dynamic loader's time on one library changed (`run --loader`
    /// on both sides): medians of the audited launches, ns.
    package struct LoaderChange: Sendable, Equatable, Codable {
        /// The library (the current side's path when it has one).
        package var path: String
        /// Its loader time (map + relocate + init) in the baseline; nil: not loaded then.
        package var before: Double?
        /// Its loader time now; nil: no longer loaded.
        package var after: Double?
        /// The change of Map, now − baseline (0 for a side without it).
        package var map: Double
        /// The change of Relocate~ (estimated).
        package var relocate: Double
        /// The change of Init.
        package var initialize: Double

        /// after − before.
        package var change: Double { (after ?? 0) - (before ?? 0) }

        /// The libraries of either side, largest change first (at most
        /// `limit`); nil unless both sides were audited. Matched by file name.
        static func changes(before: LoaderProfile?, after: LoaderProfile?, limit: Int = 10) -> [LoaderChange]? {
            guard let before, let after else { return nil }
            func name(_ path: String) -> String { (path as NSString).lastPathComponent }
            var names: [String] = []
            for library in after.libraries + before.libraries where !names.contains(name(library.path)) {
                names.append(name(library.path))
            }
            return names.map { file in
                let old = before.library(named: file), new = after.library(named: file)
                return LoaderChange(
                    path: new?.path ?? old?.path ?? file, before: old?.total, after: new?.total,
                    map: (new?.map ?? 0) - (old?.map ?? 0), relocate: (new?.relocate ?? 0) - (old?.relocate ?? 0),
                    initialize: (new?.initialize ?? 0) - (old?.initialize ?? 0))
            }.sorted { (abs($0.change), $1.path) > (abs($1.change), $0.path) }.prefix(limit).map { $0 }
        }

        /// "libfoo.so +3.10 ms (map +20.0 µs, relocate~ +12.0 µs, init +3.07 ms)".
        var phrase: String {
            let name = (path as NSString).lastPathComponent
            let parts = [("map", map), ("relocate~", relocate), ("init", initialize)].filter { $0.1 != 0 }
                .map { "\($0.0) \(LaunchAttribution.signed($0.1))" }
            let state = before == nil ? "new, " : after == nil ? "gone, " : ""
            return "\(name) \(LaunchAttribution.signed(change)) (\(state)\(parts.joined(separator: ", ")))"
        }
    }

    /// The loader's time on a library, as a clause for a library sentence ("" when not audited).
    func loaderClause(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        guard let change = loader?.first(where: { ($0.path as NSString).lastPathComponent == name }), let after = change.after
        else { return "" }
        return ", \(HumanUnits.duration(after)) of the loader's time"
    }

    /// The libraries whose loader time changed most (both sides audited),
    /// when a library was added or dropped, or when time before main
    /// changed: a phase before main is a contributor (without pre-main
    /// marks, the launch changed by 1% or more). One sentence, the three
    /// largest changes of at least 20 µs and 1% of that change. A few
    /// audited launches on a busy machine move a library's time by tens of
    /// microseconds, and its relocation by a millisecond or two: beside a
    /// launch whose pre-main did not change, that is noise to leave out.
    package var loaderSentences: [String] {
        guard let loader else { return [] }
        let changed = (preMainChange ?? totalChange)
        let preMain = phases.filter { $0.isPreMain == true }
        let moved = preMain.isEmpty ? abs(changed) >= 0.01 * baselineReady : preMain.contains(where: \.isContributor)
        guard moved || libraries?.isEmpty == false else { return [] }
        let top = loader.filter { abs($0.change) >= max(20_000, 0.01 * abs(changed)) }.prefix(3)
        guard !top.isEmpty else { return [] }
        return ["the loader's time changed most on: " + top.map(\.phrase).joined(separator: "; ")]
    }
}
