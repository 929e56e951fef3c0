import LaunchProfTestSupport

/// Two C programs that differ by one shared library: `before` links nothing
/// of its own, `after` links `libextra.so` (built from `library`, which must
/// define `int extra_value(void)` returning 1) by rpath, so a comparison of
/// the two shows what one more dependency costs a launch.
enum LibraryPair {
    /// Builds the library and both programs in `directory`; their paths.
    static func build(in directory: String, library: String) throws -> (before: String, after: String) {
        try CCompiler.compile(library, to: "\(directory)/libextra.so", flags: ["-shared", "-fPIC"], debugInfo: false)
        let before = try CCompiler.compile("int main(void) { return 0; }\n", to: "\(directory)/before", debugInfo: false)
        let after = try CCompiler.compile(
            "int extra_value(void);\nint main(void) { return extra_value() == 1 ? 0 : 1; }\n", to: "\(directory)/after",
            flags: ["-L\(directory)", "-lextra", "-Wl,-rpath,\(directory)"], debugInfo: false)
        return (before, after)
    }
}
