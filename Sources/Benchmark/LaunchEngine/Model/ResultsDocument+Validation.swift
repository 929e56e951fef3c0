import Foundation

extension ResultsDocument {
    /// The largest figure a results file may hold: 2^62 (ns, bytes or a
    /// count), as budgets allow (146 years of nanoseconds). Anything above it
    /// is not a measurement, and the readers' arithmetic (sums, chart scales,
    /// integer conversions) need not guard against it.
    public static let largestFigure = Double(1 << 62)

    /// Checks every measured figure: finite, from 0 to ``largestFigure``.
    /// Results files are written by other launchprof versions, edited by
    /// hand or damaged; a reader must say which field is wrong instead of
    /// trapping in chart arithmetic on 1e300, NaN or a negative time.
    func validateFigures(path: String) throws(ResultsFileError) {
        if let (field, value) = firstBadFigure() {
            throw .outOfRange(path: path, problem: "\(field) is \(value)")
        }
        for (index, result) in results.enumerated() {
            if let problem = result.loader?.validate() { throw .malformed(path: path, reason: "results[\(index)].\(problem)") }
        }
    }

    /// The first figure out of range, with its field, or nil.
    func firstBadFigure() -> (field: String, value: Double)? {
        for (resultIndex, result) in results.enumerated() {
            let place = "results[\(resultIndex)]"
            for key in result.summaries.keys.sorted() {
                guard let summary = result.summaries[key] else { continue }
                if !Self.isFigure(Double(summary.count)) { return ("\(place).summaries.\(key).count", Double(summary.count)) }
                for child in Mirror(reflecting: summary).children {
                    guard let label = child.label, let value = child.value as? Double else { continue }
                    if !Self.isFigure(value) { return ("\(place).summaries.\(key).\(label)", value) }
                }
            }
            for (runIndex, run) in result.runs.enumerated() {
                if let bad = Self.firstBadFigure(in: run, at: "\(place).runs[\(runIndex)]") { return bad }
            }
            if let loader = result.loader {
                if let bad = Self.firstBadFigure(in: loader, at: "\(place).loader") { return bad }
                for (index, library) in loader.libraries.enumerated() where !Self.isFigure(library.total) {
                    return ("\(place).loader.libraries[\(index)] total", library.total)
                }
            }
        }
        return nil
    }

    /// The first whole number or float in `value` (and what it holds) out of
    /// range, by field name; identifiers, exit codes and signals are not
    /// figures.
    private static func firstBadFigure(in value: Any, at place: String) -> (field: String, value: Double)? {
        for child in Mirror(reflecting: value).children {
            let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? ""
            if ["exit", "index", "pid", "version"].contains(label) { continue }
            let field = label.isEmpty ? place : "\(place).\(label)"
            let number: Double?
            switch child.value {
            case let value as UInt64: number = Double(value)
            case let value as Int: number = Double(value)
            case let value as Double: number = value
            case let value as UInt64?: number = value.map { Double($0) }
            case let value as Int?: number = value.map { Double($0) }
            case is String, is String?, is Bool, is Bool?: number = nil
            case let items as [Any]:
                for (index, item) in items.enumerated() {
                    if let bad = firstBadFigure(in: item, at: "\(field)[\(index)]") { return bad }
                }
                number = nil
            default:
                if let bad = firstBadFigure(in: child.value, at: field) { return bad }
                number = nil
            }
            if let number, !isFigure(number) { return (field, number) }
        }
        return nil
    }

    static func isFigure(_ value: Double) -> Bool {
        value.isFinite && value >= 0 && value <= largestFigure
    }
}
