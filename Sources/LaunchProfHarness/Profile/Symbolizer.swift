import Foundation

/// Turns the PCs of a trace's samples into function names, offline: the
/// module map says which file and load bias, the file's ELF symbol table
/// names the function, and Swift and C++ names are demangled. A frame whose
/// module or symbol is unknown is kept as `module+0xoffset` (or the bare
/// address), never dropped.
public struct Symbolizer: Sendable {
    public init() {}

    /// Why a trace cannot be profiled.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        case noSamples(path: String)

        public var description: String {
            switch self {
            case .noSamples(let path):
                "trace '\(path)' has no samples: the program ran without LAUNCHPROF_SAMPLE_HZ (or did not load the sampler)"
            }
        }
    }

    public func symbolize(_ trace: Trace, name: String) throws(Failure) -> SymbolizedProfile {
        guard let sampling = trace.sampling else { throw .noSamples(path: trace.path) }
        var tables: [String: ELFSymbolTable?] = [:]
        var warnings: [String] = []
        let demangler = Demangler()
        var frameIndex: [SymbolizedProfile.Frame: Int] = [:]
        var frames: [SymbolizedProfile.Frame] = []
        var cache: [UInt64: Int] = [:]

        func table(for module: TraceModule) -> ELFSymbolTable? {
            if let known = tables[module.path] { return known }
            var loaded = module.path.hasPrefix("/") ? ELFSymbolTable.read(path: module.path) : nil
            if module.path.hasPrefix("/"), loaded == nil {
                warnings.append("cannot read symbols of '\(module.path)': its frames show as module+offset")
            }
            if let found = loaded, !found.buildID.isEmpty, !module.buildID.isEmpty, found.buildID != module.buildID {
                warnings.append("'\(module.path)' changed since the run (build id \(module.buildIDText) expected): its frames show as module+offset")
                loaded = nil
            }
            tables[module.path] = loaded
            return loaded
        }

        func frame(_ pc: UInt64, isLeaf: Bool) -> Int {
            // A return address points after the call: look up the call itself.
            let address = isLeaf ? pc : pc &- 1
            if let known = cache[address] { return known }
            let value: SymbolizedProfile.Frame
            if let module = sampling.module(containing: address) {
                let offset = address &- module.bias
                if let symbol = table(for: module)?.symbol(at: offset) {
                    value = .init(name: demangler.demangle(symbol.name), module: module.name)
                } else {
                    value = .init(name: "\(module.name)+0x\(String(offset, radix: 16))", module: module.name)
                }
            } else {
                value = .init(name: "0x\(String(address, radix: 16))", module: "")
            }
            let index = frameIndex[value] ?? {
                frames.append(value)
                frameIndex[value] = frames.count - 1
                return frames.count - 1
            }()
            cache[address] = index
            return index
        }

        let stacks = sampling.samples.map { sample in
            SymbolizedProfile.Stack(
                threadID: sample.threadID, timestamp: sample.timestamp, weight: sample.weight,
                frames: sample.frames.enumerated().reversed().map { frame($0.element, isLeaf: $0.offset == 0) })
        }
        var threadNames = trace.threadNames
        threadNames.merge(sampling.threadNames) { $1 }
        return SymbolizedProfile(
            frames: frames, stacks: stacks, threadNames: threadNames, sampling: sampling,
            warnings: warnings, name: name)
    }
}
