import LaunchAnalysis
import LaunchSupport

extension Symbolizer {
    /// A name for an address no symbol covers, from what the module does
    /// know: the nearest symbol before it in its section ("f+0x40": code
    /// after `f`, such as a static function of a library stripped to its
    /// exported symbols), or its section ("[.plt] in libc.so.6": a jump
    /// stub; one frame per section, since offsets there name no function).
    /// Nil when the module has no section headers either.
    package static func nearby(_ offset: UInt64, in table: ELFSymbolTable, module: String, demangler: Demangler) -> String? {
        guard let section = table.section(at: offset) else { return nil }
        if let before = table.symbol(before: offset, in: section) {
            // before.start <= offset: no underflow.
            return "\(demangler.demangle(before.name))+0x\(String(offset - before.start, radix: 16))"
        }
        return "[\(section.name)] in \(module)"
    }
}
