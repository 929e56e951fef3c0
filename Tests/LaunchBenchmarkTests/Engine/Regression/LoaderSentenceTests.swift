import LaunchBenchmark
import Testing

@testable import LaunchEngine

/// When the Why names the loader's time per library: scripted attributions,
/// no process. A few audited launches on a busy machine move a library's
/// relocation by a millisecond or two; a launch whose time before main did
/// not change must not have that named as what changed.
@Suite("The loader's time in the Why")
struct LoaderSentenceTests {
    /// A pre-main phase whose change is, or is not, a contributor.
    static func preMain(contributor: Bool) -> LaunchAttribution.Part {
        LaunchAttribution.Part(
            kind: .phase, name: "spawn → main", baseline: 20e6, current: contributor ? 25e6 : 20.5e6,
            change: contributor ? 5e6 : 0.5e6, changeLow: contributor ? 4e6 : -1e6, changeHigh: contributor ? 6e6 : 2e6,
            pValue: contributor ? 0.0001 : 0.4, share: 0.1, isContributor: contributor, isPreMain: true)
    }

    static func attribution(preMain: [LaunchAttribution.Part], libraries: [LaunchAttribution.LibraryChange]? = []) -> LaunchAttribution {
        var attribution = LaunchAttribution(
            target: "server", mode: .warm, baselineReady: 75e6, currentReady: 120e6, totalChange: 45e6, phases: preMain,
            intervals: [], unexplained: nil)
        // As `attribute` makes it: nil without pre-main marks.
        attribution.preMainChange = preMain.isEmpty ? nil : preMain.reduce(0) { $0 + $1.change }
        attribution.libraries = libraries
        attribution.loader = [
            LaunchAttribution.LoaderChange(
                path: "/usr/lib/libFoundation.so", before: 9e6, after: 7.4e6, map: 37e3, relocate: -1.66e6, initialize: 47e3)
        ]
        return attribution
    }

    @Test("pre-main marks that did not change: the loader's noise is not named")
    func preMainUnchanged() {
        #expect(Self.attribution(preMain: [Self.preMain(contributor: false)]).loaderSentences.isEmpty)
    }

    @Test("a pre-main phase that changed: the library whose loader time moved most is named")
    func preMainChanged() {
        let sentences = Self.attribution(preMain: [Self.preMain(contributor: true)]).loaderSentences
        #expect(
            sentences == ["the loader's time changed most on: libFoundation.so -1.60 ms (map +37.0 µs, relocate~ -1.66 ms, init +47.0 µs)"])
    }

    @Test("without pre-main marks (a C program), a launch that changed by 1% or more names it")
    func noMarks() {
        #expect(Self.attribution(preMain: []).loaderSentences.count == 1)
    }
}
