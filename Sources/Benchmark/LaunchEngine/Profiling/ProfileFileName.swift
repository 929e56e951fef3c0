import Foundation

/// File names for profiles of benchmark targets, whose names are often
/// whole command lines.
package enum ProfileFileName {
    /// A target name as a file name: a command's program by its file name,
    /// then every run of characters other than letters, digits, '.', '_'
    /// and '-' as one '-' ("./build/app --fast" → "app-fast").
    package static func from(_ name: String) -> String {
        var words = name.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let first = words.first, first.contains("/") {
            words[0] = URL(fileURLWithPath: first).lastPathComponent
        }
        var cleaned = ""
        for character in words.joined(separator: " ") {
            let keep = character.isASCII && (character.isLetter || character.isNumber || "._".contains(character))
            if keep {
                cleaned.append(character)
            } else if !cleaned.isEmpty, cleaned.last != "-" {
                cleaned.append("-")
            }
        }
        while let last = cleaned.last, last == "-" || last == "." { cleaned.removeLast() }
        while let first = cleaned.first, first == "." { cleaned.removeFirst() }
        return cleaned.isEmpty ? "target" : cleaned
    }

    /// ``from(_:)`` of each target, made unique with "-2", "-3"….
    package static func unique(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = from(name)
            var candidate = base
            var number = 2
            while !used.insert(candidate).inserted {
                candidate = "\(base)-\(number)"
                number += 1
            }
            return candidate
        }
    }
}
