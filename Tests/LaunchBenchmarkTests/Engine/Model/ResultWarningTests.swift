import Foundation
import Testing

@testable import LaunchBenchmark

/// Warnings in saved documents: a kind and a message, stable on disk, and
/// documents written before warnings had kinds still read.
@Suite struct ResultWarningTests {
    @Test("a warning is saved as kind and message, and read back equal")
    func roundTrip() throws {
        let warning = ResultWarning(.outliers, "3 of 30 runs are outliers")
        let data = try JSONEncoder().encode(warning)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["kind": "outliers", "message": "3 of 30 runs are outliers"])
        #expect(try JSONDecoder().decode(ResultWarning.self, from: data) == warning)
    }

    @Test("a plain string, as documents written before kinds hold, is read as an unknown kind")
    func oldDocumentsStillRead() throws {
        let warnings = try JSONDecoder().decode([ResultWarning].self, from: Data(#"["only 3 successful runs"]"#.utf8))
        #expect(warnings == [ResultWarning(.unknown, "only 3 successful runs")])
    }

    @Test("a kind this version does not know is kept as written")
    func laterKindsSurvive() throws {
        let data = Data(#"{"kind":"thermal_throttling","message":"the CPU slowed down"}"#.utf8)
        let warning = try JSONDecoder().decode(ResultWarning.self, from: data)
        #expect(warning.kind.rawValue == "thermal_throttling" && warning.message == "the CPU slowed down")
        let again = try JSONSerialization.jsonObject(with: JSONEncoder().encode(warning)) as? [String: String]
        #expect(again?["kind"] == "thermal_throttling")
    }

    @Test("a whole results document with old-style warnings loads, each warning of unknown kind")
    func oldResultsDocument() throws {
        var document = ReportFixtures.document()
        document.results[0].warnings = [ResultWarning(.fewRuns, "only 3 successful runs")]
        var object = try #require(try JSONSerialization.jsonObject(with: document.jsonData()) as? [String: Any])
        var results = try #require(object["results"] as? [[String: Any]])
        results[0]["warnings"] = ["only 3 successful runs"]
        object["results"] = results
        let old = try JSONSerialization.data(withJSONObject: object)
        let loaded = try ResultsDocument.decode(old, path: "old.json")
        #expect(loaded.results[0].warnings == [ResultWarning(.unknown, "only 3 successful runs")])
    }
}

/// Flags only older documents carry: read when present, never written false.
@Suite struct SavedFlagTests {
    @Test("an old run's maxRSSIsUpperBound is read; a run without it is false and writes no key")
    func maxRSSUpperBound() throws {
        let run = try #require(ReportFixtures.document().results.first?.runs.first)
        #expect(!run.maxRSSIsUpperBound)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(run)) as? [String: Any])
        #expect(object["maxRSSIsUpperBound"] == nil, "false is not written")
        object["maxRSSIsUpperBound"] = true
        let old = try JSONDecoder().decode(RunMeasurement.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.maxRSSIsUpperBound)
        let again = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(old)) as? [String: Any])
        #expect(again["maxRSSIsUpperBound"] as? Bool == true)
    }
}
