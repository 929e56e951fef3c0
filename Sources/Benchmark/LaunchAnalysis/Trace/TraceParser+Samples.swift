/// The sampler's sections (5 samples, 6 modules): optional, each at most
/// once, always together. Every count and depth is checked against the
/// section's length before anything is allocated from it.
extension TraceParser {
    static let samplesTag: UInt32 = 5
    static let modulesTag: UInt32 = 6
    /// Fixed part of the samples section, before the thread table.
    static let samplesPrefixSize = 64
    static let sampleHeaderSize = 24
    static let threadEntrySize = 20

    func parseSampling(_ sections: [Section]) throws(TraceReadError) -> TraceSampling? {
        let samples = try single(Self.samplesTag, "samples", in: sections)
        let modules = try single(Self.modulesTag, "modules", in: sections)
        switch (samples, modules) {
        case (nil, nil): return nil
        case (nil, _): throw .missingSection(path: path, section: "samples (a modules section needs one)")
        case (_, nil): throw .missingSection(path: path, section: "modules (a samples section needs one)")
        case let (samples?, modules?):
            var sampling = try parseSamples(samples)
            sampling.modules = try parseModules(modules)
            return sampling
        }
    }

    private func single(_ tag: UInt32, _ name: String, in sections: [Section]) throws(TraceReadError) -> Section? {
        let found = sections.filter { $0.tag == tag }
        if found.count > 1 { throw .duplicateSection(path: path, offset: found[1].offset, section: name) }
        return found.first
    }

    private func parseSamples(_ section: Section) throws(TraceReadError) -> TraceSampling {
        var payload = cursor(section.payload, "the samples section at byte \(section.offset)", fileEnd: false)
        let rate = try payload.u32("the sampling rate")
        let maxDepth = try payload.u32("the maximum depth")
        let modeOffset = payload.offset
        let modeValue = try payload.u32("the timer mode")
        guard let mode = TraceSampling.TimerMode(rawValue: modeValue) else {
            throw .malformed(
                path: path, offset: modeOffset, detail: "the samples section's timer mode is \(modeValue) (known: 0, 1, 2, 3, 4, 5)")
        }
        let flags = try payload.u32("the sampler flags")
        guard rate > 0, rate <= 100_000, maxDepth > 0, maxDepth <= 1024 else {
            throw .malformed(
                path: path, offset: section.payload.lowerBound,
                detail: "the samples section declares \(rate) Hz and depth \(maxDepth) (allowed: 1-100000 Hz, depth 1-1024)")
        }
        let start = try payload.u64("the sampling start time")
        let stop = try payload.u64("the sampling stop time")
        let countOffset = payload.offset
        let count = try payload.u64("the sample count")
        let lost = try payload.u64("the lost sample count")
        let failed = try payload.u64("the failed sample count")
        let threadCount = Int(try payload.u32("the thread count"))
        let sampledCPU = try payload.u32("the sampled CPU time")
        try payload.require(threadCount * Self.threadEntrySize, for: "the thread table (\(threadCount) entries)")
        var names: [UInt32: String] = [:]
        for _ in 0..<threadCount {
            let tid = try payload.u32("a thread id")
            let name = try payload.take(16, "a thread name")
            names[tid] = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        }
        // Each sample takes at least its header and one frame.
        guard count <= UInt64(payload.remaining / (Self.sampleHeaderSize + 8)) else {
            throw .malformed(
                path: path, offset: countOffset,
                detail: "the samples section declares \(count) samples but holds only \(payload.remaining) bytes of samples")
        }
        var samples: [TraceSample] = []
        samples.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            samples.append(try parseSample(&payload, index: index, maxDepth: Int(maxDepth)))
        }
        guard payload.remaining == 0 else {
            throw .malformed(
                path: path, offset: payload.offset,
                detail: "\(payload.remaining) bytes follow the last of \(count) samples in the samples section")
        }
        samples.sort { ($0.timestamp, $0.threadID) < ($1.timestamp, $1.threadID) }
        var sampling = TraceSampling(
            rate: rate, maxDepth: maxDepth, timerMode: mode, mainThreadOnly: flags & 1 != 0, loaderUnguarded: flags & 2 != 0,
            threadsHooked: flags & 4 != 0,
            startNanoseconds: start, stopNanoseconds: stop, lost: lost, failed: failed,
            threadNames: names, samples: samples, modules: [], sampledCPUMicroseconds: UInt64(sampledCPU))
        sampling.kernelUnsampled = flags & 8 != 0
        return sampling
    }

    private func parseSample(_ payload: inout TraceByteCursor, index: Int, maxDepth: Int) throws(TraceReadError) -> TraceSample {
        let at = payload.offset
        let timestamp = try payload.u64("the time of sample \(index)")
        let tid = try payload.u32("the thread of sample \(index)")
        let depth = Int(try payload.u16("the depth of sample \(index)"))
        let flags = try payload.u16("the flags of sample \(index)")
        let cost = try payload.u32("the handler time of sample \(index)")
        let weight = try payload.u32("the weight of sample \(index)")
        guard depth >= 1, depth <= maxDepth else {
            throw .malformed(
                path: path, offset: at,
                detail: "sample \(index) at byte \(at) has \(depth) frames (allowed: 1 to the maximum depth \(maxDepth))")
        }
        guard weight >= 1 else {
            throw .malformed(path: path, offset: at, detail: "sample \(index) at byte \(at) has weight 0 (at least 1)")
        }
        try payload.require(depth * 8, for: "the \(depth) frames of sample \(index)")
        var frames: [UInt64] = []
        frames.reserveCapacity(depth)
        for _ in 0..<depth { frames.append(try payload.u64("a frame of sample \(index)")) }
        return TraceSample(
            timestamp: timestamp, threadID: tid, weight: weight, handlerNanoseconds: cost,
            truncated: flags & 1 != 0, unwindFailed: flags & 2 != 0, loaderBusy: flags & 4 != 0, frames: frames,
            offCPU: flags & 8 != 0, waitingForCPU: flags & 8 != 0 && flags & 16 != 0, inKernel: flags & 32 != 0, merged: flags & 64 != 0)
    }

    private func parseModules(_ section: Section) throws(TraceReadError) -> [TraceModule] {
        var payload = cursor(section.payload, "the modules section at byte \(section.offset)", fileEnd: false)
        let countOffset = payload.offset
        let count = try payload.u32("the module count")
        // Each module takes at least 32 bytes.
        guard UInt64(count) * 32 <= UInt64(payload.remaining) else {
            throw .malformed(
                path: path, offset: countOffset,
                detail: "the modules section declares \(count) modules but holds only \(payload.remaining) bytes")
        }
        var modules: [TraceModule] = []
        for index in 0..<Int(count) {
            let at = payload.offset
            let bias = try payload.u64("the load bias of module \(index)")
            let start = try payload.u64("the start of module \(index)")
            let end = try payload.u64("the end of module \(index)")
            let pathLength = Int(try payload.u32("the path length of module \(index)"))
            let idLength = Int(try payload.u32("the build id length of module \(index)"))
            guard start < end, idLength <= 64 else {
                throw .malformed(
                    path: path, offset: at,
                    detail:
                        "module \(index) at byte \(at) spans 0x\(String(start, radix: 16))-0x\(String(end, radix: 16)) with a \(idLength)-byte build id (needs start < end, at most 64 bytes)"
                )
            }
            let pathBytes = try payload.take(pathLength, "the path of module \(index)")
            guard let modulePath = String(validating: pathBytes, as: UTF8.self) else {
                throw .malformed(path: path, offset: at, detail: "the path of module \(index) at byte \(at) is not valid UTF-8")
            }
            let buildID = Array(try payload.take(idLength, "the build id of module \(index)"))
            modules.append(TraceModule(path: modulePath, bias: bias, start: start, end: end, buildID: buildID))
        }
        guard payload.remaining == 0 else {
            throw .malformed(
                path: path, offset: payload.offset,
                detail: "\(payload.remaining) bytes follow the last of \(count) modules in the modules section")
        }
        return modules.sorted { $0.start < $1.start }
    }
}
