/// libFuzzer entry for ELFImage, the cold-cache resolver's reader of an
/// executable's PT_INTERP and dynamic section. Reads go through the same
/// RandomAccessFile code as files on disk, over the input bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func elfImageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let image = try ELFImage.parse(bytes, path: "fuzz.elf")
        precondition(image.needed.count <= ELFImage.maximumNeeded)
    } catch {
        // Every rejection names the input.
        precondition(error.description.contains("fuzz.elf"), "an error that does not name the file: \(error)")
    }
    return 0
}
