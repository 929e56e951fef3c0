/// Demangled function names for one line of text.
package enum FunctionName {
    /// A demangled name without its parameter lists, generic arguments and
    /// result types, for one line of text: "closure #1 (Swift.Int) -> () in
    /// App.main()" → "closure #1 in App.main".
    package static func short(_ name: String) -> String {
        var depth = 0
        var kept = ""
        var previous: Character = " "
        for character in name {
            defer { previous = character }
            if character == "(" || character == "<" {
                depth += 1
            } else if character == ")" || (character == ">" && previous != "-"), depth > 0 {
                depth -= 1
            } else if depth == 0 {
                kept.append(character)
            }
        }
        // "-> Result" up to " in " (or the end).
        while let arrow = kept.range(of: " -> ") {
            let end = kept.range(of: " in ", range: arrow.upperBound..<kept.endIndex)?.lowerBound ?? kept.endIndex
            kept.removeSubrange(arrow.lowerBound..<end)
        }
        // Effects of a signature whose parameters went: "f(…) async throws".
        let effects: Set<Substring> = ["async", "throws", "rethrows"]
        let words = kept.split(separator: " ", omittingEmptySubsequences: true).filter { !effects.contains($0) }
        return words.isEmpty ? name : words.joined(separator: " ")
    }
}
