import Foundation

/// libFuzzer entry for the results-file loader (Scripts/checks/fuzz.sh builds it
/// with the results model, budgets, statistics and LaunchSupport sources
/// into one module).
///
/// Every input is decoded as `launchprof report`, `compare` and `explain`
/// load a results file, with its `loader` field (`--loader`'s libraries). One
/// that loads must hold only figures a reader can
/// do arithmetic on, print through the units the reports use, and survive
/// a round trip through the JSON launchprof writes.
@_cdecl("LLVMFuzzerTestOneInput")
public func resultsLoaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? ResultsDocument.decode(bytes, path: "fuzz.json") else { return 0 }
    precondition(document.firstBadFigure() == nil, "a figure out of range was loaded")
    for result in document.results {
        _ = result.label
        _ = result.successfulRuns.count
        for (key, summary) in result.summaries {
            let unit = Metric(key: key)?.unit ?? .count
            _ = HumanUnits.format(summary.median, unit: unit)
            _ = HumanUnits.format(summary.max - summary.min, unit: unit)
            _ = HumanUnits.format(summary.mean * Double(summary.count), unit: unit)
        }
        if let loader = result.loader {
            precondition(loader.libraries.count <= LoaderProfile.maximumLibraries, "more libraries than the cap were loaded")
            let sum = loader.libraries.reduce(0) { $0 + $1.total }
            _ = HumanUnits.duration(sum + loader.mapping + loader.relocation + loader.constructors + (loader.programInit ?? 0))
            _ = loader.libraries.first.map { loader.library(named: $0.path) }
        }
    }
    let written = try? document.jsonData()
    precondition(written != nil, "a loaded document cannot be written")
    precondition((try? ResultsDocument.decode(written!, path: "again.json")) != nil, "a written document cannot be read back")
    return 0
}
