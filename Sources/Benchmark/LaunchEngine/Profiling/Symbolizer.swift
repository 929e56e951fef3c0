import Foundation
import LaunchAnalysis
import LaunchSupport

/// Turns the PCs of a trace's samples into function names, offline: the
/// module map says which file and load bias, the file's ELF symbol table
/// names the function, and Swift and C++ names are demangled. A frame whose
/// module or symbol is unknown is kept as `module+0xoffset` (or the bare
/// address), never dropped.
///
/// Where a module has DWARF debug info and llvm-symbolizer is at hand
/// (`SourceLineTool`), the debug info names the functions instead, adds
/// their source files, the line each sample was on, and the calls the
/// compiler inlined, as frames of their own.
package struct Symbolizer: Sendable {
    /// The llvm-symbolizer to read debug info with, if any.
    package var lineTool: SourceLineTool
    /// How long llvm-symbolizer may take over one module before it is stopped.
    package var lineTimeout: Duration
    /// What runs llvm-symbolizer: the command's spawner (`profile`'s is its
    /// recorder's). It starts its process only when the tool first runs.
    package var spawner: Spawner

    /// A symbolizer that finds source lines with `lineTool`, each call within
    /// `lineTimeout`, run through `spawner`.
    package init(lineTool: SourceLineTool = .locate(), lineTimeout: Duration = RunDefaults.timeout, spawner: Spawner = Spawner()) {
        self.lineTool = lineTool
        self.lineTimeout = lineTimeout
        self.spawner = spawner
    }

    /// Why a trace cannot be profiled.
    package enum Failure: Error, CustomStringConvertible, Sendable {
        /// The trace has no samples section.
        case noSamples(path: String)
        /// No trace was given.
        case noTraces

        package var description: String {
            switch self {
            case .noSamples(let path):
                "trace '\(path)' has no samples: the program ran without LAUNCHPROF_SAMPLE_HZ (or did not load the sampler)"
            case .noTraces:
                "no traces to profile"
            }
        }
    }

    /// The outermost frame of a sample taken while a thread held one of the
    /// dynamic loader's locks, when unwinding was not safe.
    package static let loaderBusyFrame = "[dynamic loader busy]"
    /// The outermost frame of a wall-clock sample that found its thread
    /// waiting, and of one that found it running.
    package static let offCPUFrame = "[off CPU]"
    /// See ``offCPUFrame``.
    package static let onCPUFrame = "[on CPU]"
    /// The leaf frame of a kernel sample taken in the kernel (a system
    /// call, a page fault), under the user frame that entered it.
    package static let inKernelFrame = "[kernel]"
    /// The outermost frame of a wall-clock sample that found its thread off
    /// CPU but runnable most of that time: waiting for a CPU, not blocked.
    package static let waitingForCPUFrame = "[waiting for CPU]"
    /// The only frame of the periods a thread's event counted for which no
    /// signal came of its own (merged with a pending one): CPU time the
    /// profile keeps without a stack.
    package static let unstackedFrame = "[periods without a stack]"

    /// One launch's profile: `trace`'s samples symbolized through its
    /// module map; `name` titles it.
    package func symbolize(_ trace: Trace, name: String) throws(Failure) -> SymbolizedProfile {
        try symbolize([trace], name: name)
    }

    /// One profile of several launches of a program: each trace's PCs are
    /// mapped through its own module map (load addresses differ run to run),
    /// and equal functions become one frame.
    package func symbolize(_ traces: [Trace], name: String) throws(Failure) -> SymbolizedProfile {
        var samplings: [TraceSampling] = []
        for trace in traces {
            guard let sampling = trace.sampling else { throw .noSamples(path: trace.path) }
            samplings.append(sampling)
        }
        guard !samplings.isEmpty else { throw .noTraces }
        var tables = ModuleTables()
        let (sourceFrames, lineToolMissing) = sourceFrames(of: samplings, tables: &tables)
        var builder = FrameBuilder()
        var stacks: [SymbolizedProfile.Stack] = []
        var threadNames: [UInt32: String] = [:]
        for (run, (trace, sampling)) in zip(traces, samplings).enumerated() {
            // Addresses differ between runs (ASLR): the cache is per run.
            var cache: [UInt64: FrameBuilder.Resolved] = [:]
            for sample in sampling.samples {
                var frames: [Int] = []
                var location: SourceLocation?
                for (depth, pc) in sample.frames.enumerated().reversed() {
                    // A return address points after the call: look up the call itself.
                    let address = depth == 0 ? pc : pc &- 1
                    let resolved: FrameBuilder.Resolved
                    if let known = cache[address] {
                        resolved = known
                    } else {
                        let module = sampling.module(containing: address)
                        // No table: the file is not what was loaded, nor is its debug info.
                        let table = module.flatMap { tables.table(for: $0) }
                        let source = module.flatMap { table == nil ? nil : sourceFrames[$0.path]?[address &- $0.bias] }
                        resolved = builder.resolve(address, module: module, table: table, source: source ?? [])
                        cache[address] = resolved
                    }
                    frames += resolved.frames
                    location = resolved.location
                }
                // Taken while a thread held a loader lock: the PC alone, under
                // a frame that says why (it is no caller of the PC's function).
                if sample.loaderBusy { frames.insert(builder.marker(Self.loaderBusyFrame), at: 0) }
                // Taken in the kernel: a leaf below the frame that entered it.
                if sample.inKernel { frames.append(builder.marker(Self.inKernelFrame)) }
                // Wall clock: running and waiting side by side, from the root.
                if sampling.timerMode == .threadWallClock {
                    let state = sample.waitingForCPU ? Self.waitingForCPUFrame : sample.offCPU ? Self.offCPUFrame : Self.onCPUFrame
                    frames.insert(builder.marker(state), at: 0)
                }
                // A signal merged with a pending one: its stack stands for the
                // last period, and the periods before it, counted by the
                // thread's event, are taken by no stack (said so, never
                // credited to this one).
                let unstacked = sample.unstackedPeriods
                stacks.append(
                    SymbolizedProfile.Stack(
                        run: run, threadID: sample.threadID, timestamp: sample.timestamp, weight: sample.weight - unstacked,
                        frames: frames, location: location))
                if unstacked > 0 {
                    stacks.append(
                        SymbolizedProfile.Stack(
                            run: run, threadID: sample.threadID, timestamp: sample.timestamp, weight: unstacked,
                            frames: [builder.marker(Self.unstackedFrame)], location: nil))
                }
            }
            threadNames.merge(trace.threadNames) { $1 }
            threadNames.merge(sampling.threadNames) { $1 }
        }
        var profile = SymbolizedProfile(
            frames: builder.frames, stacks: stacks, threadNames: threadNames, sampling: TraceSampling.merged(samplings),
            runStarts: samplings.map(\.startNanoseconds), warnings: tables.warnings, name: name)
        profile.lineToolMissing = lineToolMissing
        return profile
    }

    /// llvm-symbolizer's frames for every sampled address of every module
    /// with debug info, by module path (one run per module), and whether
    /// the tool was missing where it would have found lines. Failures
    /// become warnings: those modules keep their ELF names.
    private func sourceFrames(
        of samplings: [TraceSampling], tables: inout ModuleTables
    ) -> (frames: [String: [UInt64: [SourceFrame]]], toolMissing: Bool) {
        switch lineTool {
        case .off:
            return ([:], false)
        case .unusable(let path, let reason):
            tables.warnings.append(
                "\(SourceLineTool.variable)='\(path)' cannot be used (\(reason)): no source lines (set it to an llvm-symbolizer, or to none)"
            )
            return ([:], false)
        case .notFound:
            return ([:], !Self.addressesWithDebugInfo(in: samplings, tables: &tables).isEmpty)
        case .tool(let path):
            let lookup = SourceLineLookup(tool: path, timeout: lineTimeout, spawner: spawner)
            var frames: [String: [UInt64: [SourceFrame]]] = [:]
            for (module, addresses) in Self.addressesWithDebugInfo(in: samplings, tables: &tables).sorted(by: { $0.key < $1.key }) {
                do {
                    frames[module] = try lookup.frames(module: module, addresses: addresses.sorted())
                } catch {
                    tables.warnings.append("llvm-symbolizer ('\(path)') on '\(module)' \(error): its frames have no source lines")
                }
            }
            return (frames, false)
        }
    }

    /// The sampled ELF addresses of each module file that has debug info.
    private static func addressesWithDebugInfo(
        in samplings: [TraceSampling], tables: inout ModuleTables
    ) -> [String: Set<UInt64>] {
        var addresses: [String: Set<UInt64>] = [:]
        for sampling in samplings {
            for sample in sampling.samples {
                for (depth, pc) in sample.frames.enumerated() {
                    let address = depth == 0 ? pc : pc &- 1
                    guard let module = sampling.module(containing: address), tables.table(for: module) != nil,
                        tables.hasDebugInfo(module.path)
                    else { continue }
                    addresses[module.path, default: []].insert(address &- module.bias)
                }
            }
        }
        return addresses
    }
}

/// The modules' ELF symbol tables, each read once, and the problems met
/// reading them.
private struct ModuleTables {
    private var tables: [String: ELFSymbolTable?] = [:]
    private var debugInfo: [String: Bool] = [:]
    private var warnedChanged: Set<String> = []
    var warnings: [String] = []

    /// The symbol table of `module`'s file, nil when it cannot be read or
    /// no longer is the file that was loaded.
    mutating func table(for module: TraceModule) -> ELFSymbolTable? {
        let table: ELFSymbolTable?
        if let known = tables[module.path] {
            table = known
        } else {
            if module.path.hasPrefix("/") {
                do {
                    table = try ELFSymbolTable.read(path: module.path)
                } catch {
                    table = nil
                    warnings.append(
                        "cannot read symbols of '\(TerminalText.sanitized(error.path))': \(error.reason); its frames show as module+offset")
                }
            } else {
                table = nil
            }
            tables[module.path] = table
        }
        guard let table else { return nil }
        // The file may have been rebuilt since the run (or between two runs).
        if !table.buildID.isEmpty, !module.buildID.isEmpty, table.buildID != module.buildID {
            if warnedChanged.insert(module.path).inserted {
                warnings.append(
                    "'\(TerminalText.sanitized(module.path))' changed since the run (build id \(module.buildIDText) expected): its frames show as module+offset"
                )
            }
            return nil
        }
        return table
    }

    /// Whether the file at `path` (already read by ``table(for:)``) has
    /// debug info, in itself or installed separately.
    mutating func hasDebugInfo(_ path: String) -> Bool {
        if let known = debugInfo[path] { return known }
        let table = tables[path] ?? nil
        let has = table.map { $0.hasLineTable || $0.separateDebugFile.map(FileManager.default.fileExists) == true } ?? false
        debugInfo[path] = has
        return has
    }
}

/// Makes the profile's frames: one per function (name, module, inlined),
/// whatever line of it a sample was on.
private struct FrameBuilder {
    /// What one address became: frames from the outermost (the function
    /// the address is in) to the innermost inlined call, and its line.
    struct Resolved {
        var frames: [Int]
        var location: SourceLocation?
    }

    private struct Key: Hashable {
        var name: String
        var module: String
        var inlined: Bool
    }

    private(set) var frames: [SymbolizedProfile.Frame] = []
    private var index: [Key: Int] = [:]
    private let demangler = Demangler()

    /// `address` (a runtime address) in `module`: `source` is
    /// llvm-symbolizer's answer for it (innermost first), used when it comes
    /// from debug info; otherwise the ELF symbol names it.
    mutating func resolve(
        _ address: UInt64, module: TraceModule?, table: ELFSymbolTable?, source: [SourceFrame]
    ) -> Resolved {
        guard let module else { return Resolved(frames: [intern(.init(name: "0x\(String(address, radix: 16))", module: ""))]) }
        let offset = address &- module.bias
        let symbol = table?.symbol(at: offset)?.name
        let unknown =
            table.flatMap { Symbolizer.nearby(offset, in: $0, module: module.name, demangler: demangler) }
            ?? "\(module.name)+0x\(String(offset, radix: 16))"
        guard source.first?.hasDebugInfo == true else {
            return Resolved(frames: [intern(.init(name: symbol.map(demangler.demangle) ?? unknown, module: module.name))])
        }
        let outermost = source.count - 1
        let frames = source.enumerated().reversed().map { depth, entry in
            let inlined = depth < outermost
            let name = !entry.function.isEmpty ? entry.function : inlined ? nil : symbol
            let file = entry.declarationFile
            return intern(
                .init(
                    name: name.map(demangler.demangle) ?? unknown, module: module.name, file: file,
                    line: file != nil && entry.startLine > 0 ? entry.startLine : nil, inlined: inlined))
        }
        return Resolved(frames: frames, location: source[0].location)
    }

    /// A frame of launchprof's own that stands for no code, like
    /// "[dynamic loader busy]".
    mutating func marker(_ name: String) -> Int { intern(.init(name: name, module: "")) }

    /// The index of `frame`'s function, adding it if new. The first
    /// address that knows the function's file gives it to the frame.
    private mutating func intern(_ frame: SymbolizedProfile.Frame) -> Int {
        let key = Key(name: frame.name, module: frame.module, inlined: frame.inlined)
        if let known = index[key] {
            if frames[known].file == nil, frame.file != nil { frames[known] = frame }
            return known
        }
        frames.append(frame)
        index[key] = frames.count - 1
        return frames.count - 1
    }
}
