import CLaunchProfSampler
import CLaunchProfSupport
import Glibc

/// The sampler's trace sections (samples, modules), as the C sampler
/// encodes them: one encoder for the library's trace writer and the preload
/// library's, so there is one format (docs/trace-format.md).
enum SamplerSections {
    /// The encoded sections, or nothing when sampling never started.
    static func encode() -> [UInt8] {
        var size = 0
        // One snapshot, encoded in C under the sampler's lock: handlers that
        // still add samples cannot make the two passes disagree.
        guard let encoded = lp_sampler_encode_sections(&size) else { return [] }
        defer { free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: size))
    }
}
