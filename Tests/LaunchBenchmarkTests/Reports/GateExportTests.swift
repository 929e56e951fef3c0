import Foundation
import FoundationXML
import LaunchBenchmark
import Testing

@Suite("CI outputs: JUnit, Markdown, GitHub annotations")
struct GateExportTests {
    /// A run with two budgets (one exceeded), one regression, one unchanged
    /// metric and a target with a failed run.
    static func document() -> ResultsDocument {
        let base = BaselineComparerTests.document([
            BudgetTests.result("app", times: BaselineComparerTests.times(100)),
            BudgetTests.result("hello", times: BaselineComparerTests.times(5)),
        ])
        var failing = BudgetTests.result("crashy", times: [1e6, 1e6])
        failing.runs[1].exit = .signaled(11)
        var document = BaselineComparerTests.document([
            BudgetTests.result("app", times: BaselineComparerTests.times(130, seed: 2)),
            BudgetTests.result("hello", times: BaselineComparerTests.times(5, seed: 1)), failing,
        ])
        let budgets = [
            Budget(
                target: "app", metric: .wallToExit, statistic: .p95, limit: .absolute(Quantity(value: 100e6, unit: .nanoseconds)),
                source: "ci/launchprof.yml:12"),
            Budget(target: "app", metric: .wallToExit, limit: .ratio(40, reference: "hello")),
        ]
        document.budgets = BudgetEvaluator(budgets: budgets).evaluate(document.results)
        document.comparison = BaselineComparer(budgets: budgets).compare(baseline: base, current: document, baselineName: "main & <co>")
        return document
    }

    @Test("JUnit XML is well formed, counts match, failures carry the numbers")
    func junit() throws {
        let xml = try JUnitExporter().export(Self.document())
        let parsed = try JUnitTree(xml)
        #expect(parsed.root.name == "testsuites")
        #expect(parsed.root.attributes["tests"] == "8")
        #expect(parsed.root.attributes["failures"] == "4")
        let suites = parsed.root.children
        #expect(suites.map { $0.attributes["name"] } == ["launches", "budgets", "regressions against main & <co>"])
        for suite in suites {
            #expect(suite.name == "testsuite")
            #expect(suite.attributes["tests"] == "\(suite.children.count)")
            let failures = suite.children.filter { $0.children.contains { $0.name == "failure" } }.count
            #expect(suite.attributes["failures"] == "\(failures)")
            for test in suite.children {
                #expect(test.name == "testcase" && test.attributes["name"] != nil && test.attributes["classname"] != nil)
                #expect(test.attributes["time"].flatMap(Double.init) != nil)
            }
        }
        let budgetFailure = try #require(suites[1].children[0].children.first { $0.name == "failure" })
        #expect(budgetFailure.attributes["message"]?.hasPrefix("budget exceeded: ") == true)
        #expect(budgetFailure.text.contains("ci/launchprof.yml:12"))
        let regression = try #require(suites[2].children.first { $0.children.contains { $0.name == "failure" } })
        #expect(regression.attributes["name"] == "app (warm) wall_to_ready p50")
        #expect(regression.children[0].attributes["message"]?.contains("regressed +") == true)
        #expect(suites[0].children[2].children.first?.attributes["message"] == "1 of 2 runs failed")
    }

    @Test("Markdown for a pull-request comment: verdict, budget and comparison tables")
    func markdown() throws {
        let text = try MarkdownExporter().export(Self.document())
        #expect(
            text.hasPrefix("❌ **launchprof: 1 target(s) failed to launch, 1 of 2 budgets exceeded, 2 regressions against main & <co>**"))
        #expect(text.contains("| ❌ | app | warm | wall_to_exit | p95 | <= 100 ms |"))
        #expect(text.contains("| ✅ | app | warm | wall_to_exit | p50 | <= 40.0x hello |"))
        #expect(text.contains("| 🔴 regressed | app | warm | wall_to_ready p50 | 100 ms |"), "\(text)")
        #expect(text.contains("| ⚪ | hello | warm |"))
        #expect(text.contains("p < 0.01"))
    }

    @Test("GitHub annotations: escaped, with the budget's file and line")
    func annotations() throws {
        let lines = GitHubAnnotations.lines(Self.document())
        #expect(lines.contains { $0.hasPrefix("::error title=launchprof%3A crashy (warm) failed to launch::1 of 2 runs failed") })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=ci/launchprof.yml,line=12,title=launchprof budget exceeded%3A app (warm) wall_to_exit p95 <= 100 ms::")
            })
        #expect(lines.contains { $0.hasPrefix("::error title=launchprof regression%3A app (warm) wall_to_ready p50::100 ms → ") })
        #expect(GitHubAnnotations.data("50%\nnext") == "50%25%0Anext")
        #expect(GitHubAnnotations.property("a:b,c") == "a%3Ab%2Cc")
    }

    @Test("terminal report ends with the budgets, the comparison and the verdict")
    func terminal() throws {
        let text = try TerminalReport(colour: false).export(Self.document())
        #expect(text.contains("FAIL  app (warm) wall_to_exit p95 <= 100 ms"))
        #expect(text.contains("Compared with baseline main & <co>"))
        #expect(text.contains("regressed  app (warm) wall_to_ready p50"))
        #expect(text.hasSuffix("FAILED: 1 target(s) failed to launch, 1 of 2 budgets exceeded, 2 regressions against main & <co>\n"))
    }
}

/// A minimal DOM built with FoundationXML's XMLParser, which rejects
/// malformed XML.
struct JUnitTree {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    let root: Element

    init(_ xml: String) throws {
        let delegate = Builder()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = delegate
        guard parser.parse(), let root = delegate.root else {
            throw parser.parserError ?? CocoaError(.coderReadCorrupt)
        }
        self.root = root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var stack: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = Element(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }
}
