import Foundation
import LaunchAnalysis
import LaunchSupport

/// What glibc's dynamic loader says of one start-up (`LD_DEBUG=statistics`
/// on standard error): its time in cycles, and how much went to relocating
/// and to loading objects.
package struct LoaderStatistics: Sendable, Equatable, Codable {
    /// Cycles in the dynamic loader at start-up.
    package var startupCycles: Int
    /// Share of them spent relocating.
    package var relocationShare: Double
    /// Share of them spent loading objects.
    package var loadShare: Double
    /// Symbol relocations (the final count).
    package var relocations: Int
    /// Relative relocations.
    package var relativeRelocations: Int

    /// Launches `target`'s command once more with LD_DEBUG=statistics (its
    /// output to files, through `spawner`, the command's, bounded by
    /// `timeout`) and parses what the loader said; nil when it cannot be
    /// started or said nothing (a static program).
    package static func measure(_ target: LaunchTarget, timeout: Duration = RunDefaults.timeout, spawner: Spawner) -> LoaderStatistics? {
        guard let directory = try? PrivateDirectory.make(prefix: "launchprof-ld-debug") else { return nil }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var run = target
        run.environment["LD_DEBUG"] = "statistics"
        run.ready = .exit
        run.activation = nil
        let request = RunRequest(
            target: run, timeout: timeout, output: .files(stdout: directory + "/stdout", stderr: directory + "/stderr"))
        guard (try? spawner.run(request)) != nil,
            let text = try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)
        else { return nil }
        return parse(text)
    }

    /// Parses the loader's report; nil when it has none (a static program,
    /// another C library).
    package static func parse(_ text: String) -> LoaderStatistics? {
        func number(after label: String) -> Int? {
            guard let line = text.split(separator: "\n").last(where: { $0.contains(label + ":") }),
                let colon = line.range(of: label + ":")
            else { return nil }
            return Int(line[colon.upperBound...].split(separator: " ").first ?? "")
        }
        func share(after label: String) -> Double? {
            guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }),
                let open = line.lastIndex(of: "("), let percent = line.lastIndex(of: "%")
            else { return nil }
            return Double(line[line.index(after: open)..<percent]).map { $0 / 100 }
        }
        guard let cycles = number(after: "total startup time in dynamic loader") else { return nil }
        return LoaderStatistics(
            startupCycles: cycles, relocationShare: share(after: "time needed for relocation") ?? 0,
            loadShare: share(after: "time needed to load objects") ?? 0,
            relocations: number(after: "final number of relocations") ?? number(after: "number of relocations") ?? 0,
            relativeRelocations: number(after: "number of relative relocations") ?? 0)
    }
}
