import Foundation

/// What llvm-symbolizer said about one address: a function, and where in
/// the source it was, as `--output-style=JSON --inlines --no-demangle`
/// prints it. LLVM 14 and 21 print the same fields; for an address the
/// debug info does not cover they fill in the ELF symbol's name alone
/// (empty files, line 0).
package struct SourceFrame: Equatable, Sendable {
    /// The function's name as the binary spells it (mangled), "" if unknown.
    package var function: String
    /// The file and line being executed (for a caller of an inlined call:
    /// where the call is). "" and 0 when unknown.
    var file: String
    var line: Int
    /// Where the function is declared. LLVM leaves the file empty for a
    /// function that is not inlined (C compiled by GCC): `file` stands in.
    var startFile: String
    package var startLine: Int

    /// Whether the debug info knew this address (not just the symbol table).
    package var hasDebugInfo: Bool { !file.isEmpty || !startFile.isEmpty || startLine > 0 }

    /// The file the function is in: its declaration's, else the executed
    /// line's; nil when neither is a real file.
    package var declarationFile: String? {
        [startFile, file].first { !$0.isEmpty && !$0.hasSuffix("<compiler-generated>") }
    }

    /// The executed line, when it is a real line of a real file (Swift marks
    /// generated code with line 0 or the file "<compiler-generated>").
    package var location: SourceLocation? {
        guard line > 0, !file.isEmpty, !file.hasSuffix("<compiler-generated>") else { return nil }
        return SourceLocation(file: file, line: line)
    }
}
