/// libFuzzer entry for ELFSymbolTable, the symbolizer's reader of a
/// module's section headers, symbol table, build-id note and section names.
@_cdecl("LLVMFuzzerTestOneInput")
public func elfSymbolTableFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    do {
        let table = try ELFSymbolTable.parse(raw, path: "fuzz.so")
        for address: UInt64 in [0, 1, 0x1000, UInt64.max] { _ = table.symbol(at: address) }
        if let first = table.symbols.first { _ = table.symbol(at: first.start) }
        _ = table.separateDebugFile
    } catch {
        precondition(error.description.contains("fuzz.so"), "an error that does not name the file: \(error)")
    }
    return 0
}
