import CLaunchProfSupport

/// The sampler's trace sections (samples, modules), as the C sampler
/// encodes them: one encoder for the library's trace writer and the preload
/// library's, so there is one format (docs/trace-format.md).
enum SamplerSections {
    /// The encoded sections, or nothing when sampling never started.
    static func encode() -> [UInt8] {
        let size = lp_sampler_encode_sections(nil, 0)
        guard size > 0 else { return [] }
        // Room for samples committed between measuring and encoding.
        var bytes = [UInt8](repeating: 0, count: size + 64 * 1024)
        let written = bytes.withUnsafeMutableBufferPointer { lp_sampler_encode_sections($0.baseAddress, $0.count) }
        guard written <= bytes.count else { return [] }
        bytes.removeLast(bytes.count - written)
        return bytes
    }
}
