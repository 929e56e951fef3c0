import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchEngine
@testable import LaunchSupport

/// An address no symbol covers is named from what its module does know —
/// the nearest symbol before it in its section, or the section — never a
/// bare `module+0x…` when the module has section headers.
struct NearbyFrameNameTests {
    /// At -O0 functions stay in source order: `helper_not_exported` (static)
    /// follows `exported_first` (exported with -rdynamic) in .text.
    static let source = """
        #include <stdio.h>
        __attribute__((noinline)) int exported_first(int x) { return x * 3 + 1; }
        __attribute__((noinline)) static int helper_not_exported(int x) { return exported_first(x) * 7; }
        int main(int argc, char **argv) { (void)argv; printf("%d\\n", helper_not_exported(argc)); return 0; }
        """

    /// The binary, and a copy stripped to its dynamic symbols.
    func binaries(_ scratch: ScratchDirectory) throws -> (full: ELFSymbolTable, stripped: ELFSymbolTable, name: String) {
        let binary = try CCompiler.compile(Self.source, to: scratch.file("nearby"), flags: ["-rdynamic"], optimization: "-O0")
        let stripped = scratch.file("nearby-stripped")
        let strip = try CommandRun.run("/usr/bin/strip", ["-s", "-o", stripped, binary])
        try #require(strip.status == 0, "\(strip.standardError)")
        return (try ELFSymbolTable.read(path: binary), try ELFSymbolTable.read(path: stripped), "nearby-stripped")
    }

    @Test func aStrippedStaticFunctionIsNamedAfterTheExportedOneBeforeIt() throws {
        let scratch = try ScratchDirectory()
        let (full, stripped, name) = try binaries(scratch)
        let helper = try #require(full.symbols.first { $0.name == "helper_not_exported" })
        let exported = try #require(stripped.symbols.first { $0.name == "exported_first" })
        #expect(stripped.symbol(at: helper.start + 4) == nil, "the static function has no symbol of its own once stripped")
        let named = Symbolizer.nearby(helper.start + 4, in: stripped, module: name, demangler: Demangler())
        #expect(named == "exported_first+0x\(String(helper.start + 4 - exported.start, radix: 16))")
    }

    @Test func aJumpStubIsNamedByItsSectionAndModule() throws {
        let scratch = try ScratchDirectory()
        let (_, stripped, name) = try binaries(scratch)
        let plt = try #require(stripped.sections.first { $0.name.hasPrefix(".plt") }, "\(stripped.sections.map(\.name))")
        #expect(stripped.symbol(at: plt.start + 2) == nil)
        #expect(Symbolizer.nearby(plt.start + 2, in: stripped, module: name, demangler: Demangler()) == "[\(plt.name)] in \(name)")
    }

    @Test func anAddressOutsideEveryLoadedSectionKeepsItsModuleOffset() throws {
        let scratch = try ScratchDirectory()
        let (_, stripped, name) = try binaries(scratch)
        #expect(Symbolizer.nearby(0, in: stripped, module: name, demangler: Demangler()) == nil)
    }
}
