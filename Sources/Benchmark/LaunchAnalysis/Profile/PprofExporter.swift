import Foundation
import LaunchSupport

/// A profile in pprof's format (profile.proto, github.com/google/pprof,
/// proto/profile.proto), gzipped: what `go tool pprof`, Grafana Pyroscope,
/// Parca and swift-profile-recorder read and write.
///
/// - Sample types: `samples`/`count` (the periods a stack stands for,
///   the folded stacks' weight) and `cpu`/`nanoseconds` (`wall` under
///   `--clock wall`), the second the default.
/// - Locations: one per machine frame, its inlined calls as further lines
///   (innermost first, as profile.proto orders them); functions with their
///   source file and first line, and the leaf's executed line, where the
///   debug info gave them. A location's address is 0: the profile is
///   symbolized already (every mapping says `has_functions`), and it merges
///   launches whose addresses differ.
/// - Mappings: one per module file, with its address range in the first
///   launch that loaded it and its GNU build id (hex), which continuous
///   profilers match debug info by.
/// - Labels on every sample: `program`, `phase` (``preMainPhase`` or
///   ``beforeReadyPhase``), `thread` (its name) and the numeric `thread_id`,
///   `launch` (1, 2, … when several were merged), then `labels` (a
///   benchmark's commit, branch, runner…). Samples equal in stack and
///   labels are one sample, their values summed.
package enum PprofExporter {
    /// The phase of a sample taken before `main` (the dynamic loader,
    /// constructors, static initializers).
    package static let preMainPhase = "pre-main"
    /// The phase of a sample taken from `main` until ready (or exit).
    package static let beforeReadyPhase = "before ready"
    /// The labels the exporter sets itself; others of these names are left out.
    package static let labelNames: Set<String> = ["program", "phase", "thread", "thread_id", "launch"]

    /// `profile` as a gzipped profile.proto. `traces` are the launches it
    /// was symbolized from, in order (their modules give the mappings,
    /// their headers when main began); `time` is when it was taken.
    package static func gzipped(
        _ profile: SymbolizedProfile, traces: [Trace], program: String, labels: [(name: String, value: String)] = [],
        time: Date = Date()
    ) -> [UInt8] {
        Gzip.stored(encoded(profile, traces: traces, program: program, labels: labels, time: time))
    }

    /// `profile` as profile.proto's bytes, not compressed (``gzipped(_:traces:program:labels:time:)``).
    package static func encoded(
        _ profile: SymbolizedProfile, traces: [Trace], program: String, labels: [(name: String, value: String)] = [],
        time: Date = Date()
    ) -> [UInt8] {
        var builder = Builder(profile: profile, traces: traces)
        builder.addSamples(program: program, labels: labels)
        return builder.encode(time: time, program: program)
    }

    /// When `main` began in each launch: the trace's main mark
    /// (`LaunchTracker.recordLaunchStart()`), else the first sample of the
    /// launched process's main thread with `main` on its stack; nil when
    /// neither is known (no phase label then).
    static func mainStarts(of profile: SymbolizedProfile, traces: [Trace]) -> [UInt64?] {
        let mainFrames = Set(profile.frames.indices.filter { profile.frames[$0].name == "main" })
        var starts: [UInt64?] = traces.prefix(profile.runCount).map { $0.header.mainNanoseconds }
        starts += Array(repeating: nil, count: max(0, profile.runCount - starts.count))
        for stack in profile.stacks where stack.run < traces.count && traces[stack.run].header.mainNanoseconds == nil {
            guard stack.threadID == traces[stack.run].header.pid, stack.frames.contains(where: mainFrames.contains) else { continue }
            starts[stack.run] = min(starts[stack.run] ?? .max, stack.timestamp)
        }
        return starts
    }

    // MARK: - Building

    /// profile.proto's tables as they are filled: strings, mappings,
    /// locations, samples (functions are the profile's frames, id = index + 1).
    private struct Builder {
        struct Line: Hashable {
            var function: Int
            var line: Int
        }
        struct Mapping {
            var module: TraceModule
            var hasFiles = false
            var hasInlined = false
        }
        struct Location {
            var mapping: Int
            var lines: [Line]
        }
        struct SampleKey: Hashable {
            var locations: [UInt64]
            var run: Int
            var thread: UInt32
            var phase: String?
        }

        let profile: SymbolizedProfile
        let traces: [Trace]
        var strings: [String] = [""]
        var stringIndex: [String: Int] = ["": 0]
        var mappings: [Mapping] = []
        var mappingIndex: [String: Int] = [:]
        var locations: [Location] = []
        var locationIndex: [[Line]: Int] = [:]
        var samples: [(key: SampleKey, weight: UInt64)] = []
        var extraLabels: [(name: String, value: String)] = []
        var sampleIndex: [SampleKey: Int] = [:]

        init(profile: SymbolizedProfile, traces: [Trace]) {
            (self.profile, self.traces) = (profile, traces)
            // A mapping per sampled module, in the traces' order: the
            // launched image first (pprof takes the first mapping for the
            // program: "File:" in its reports). The first launch's module
            // of a name wins.
            let sampled = Set(profile.frames.map(\.module))
            for trace in traces {
                for module in trace.sampling?.modules ?? [] where sampled.contains(module.name) && mappingIndex[module.name] == nil {
                    mappings.append(Mapping(module: module))
                    mappingIndex[module.name] = mappings.count
                }
            }
        }

        mutating func string(_ text: String) -> Int64 {
            if let known = stringIndex[text] { return Int64(known) }
            strings.append(text)
            stringIndex[text] = strings.count - 1
            return Int64(strings.count - 1)
        }

        /// The mapping id (1-based) of the module named `name`, 0 for none.
        func mapping(_ name: String) -> Int { mappingIndex[name] ?? 0 }

        /// The location id (1-based) of `lines`, innermost first, the last
        /// the machine frame they were inlined into.
        mutating func location(_ lines: [Line]) -> UInt64 {
            if let known = locationIndex[lines] { return UInt64(known) }
            let outer = profile.frames[lines[lines.count - 1].function]
            let mapping = mapping(outer.module)
            if mapping > 0 {
                if lines.contains(where: { profile.frames[$0.function].file != nil }) { mappings[mapping - 1].hasFiles = true }
                if lines.count > 1 { mappings[mapping - 1].hasInlined = true }
            }
            locations.append(Location(mapping: mapping, lines: lines))
            locationIndex[lines] = locations.count
            return UInt64(locations.count)
        }

        /// A stack's location ids, leaf first: each machine frame with the
        /// calls inlined into it; the leaf's executed line on the deepest
        /// frame of a module (not on a marker such as "[kernel]").
        mutating func locations(of stack: SymbolizedProfile.Stack) -> [UInt64] {
            let leaf = stack.frames.lastIndex { !profile.frames[$0].module.isEmpty }
            var groups: [[Line]] = []
            for (position, frame) in stack.frames.enumerated() {
                let line = position == leaf ? stack.location?.line ?? 0 : 0
                let entry = Line(function: frame, line: line)
                if profile.frames[frame].inlined, !groups.isEmpty {
                    groups[groups.count - 1].insert(entry, at: 0)
                } else {
                    groups.append([entry])
                }
            }
            return groups.reversed().map { location($0) }
        }

        mutating func addSamples(program: String, labels: [(name: String, value: String)]) {
            // The exporter's own labels are not overridden.
            extraLabels = labels.filter { !PprofExporter.labelNames.contains($0.name) }
            let mainStarts = PprofExporter.mainStarts(of: profile, traces: traces)
            for stack in profile.stacks {
                let phase = mainStarts[stack.run].map { stack.timestamp < $0 ? preMainPhase : beforeReadyPhase }
                let key = SampleKey(locations: locations(of: stack), run: stack.run, thread: stack.threadID, phase: phase)
                if let known = sampleIndex[key] {
                    samples[known].weight += UInt64(stack.weight)
                } else {
                    sampleIndex[key] = samples.count
                    samples.append((key, UInt64(stack.weight)))
                }
            }
        }

        // MARK: - Encoding

        /// profile.proto's `Profile` message. Strings are interned while
        /// the other fields are written, so the table goes last.
        mutating func encode(time: Date, program: String) -> [UInt8] {
            var body = ProtobufWriter()
            let wall = profile.sampling.timerMode == .threadWallClock
            let types = [(string("samples"), string("count")), (string(wall ? "wall" : "cpu"), string("nanoseconds"))]
            for (type, unit) in types {
                body.message(1) {
                    $0.integer(1, type)
                    $0.integer(2, unit)
                }  // sample_type
            }
            encodeSamples(into: &body, program: program)
            encodeTables(into: &body)
            let nanoseconds = profile.nanosecondsPerWeight
            body.integer(9, Int64((time.timeIntervalSince1970 * 1e9).rounded()))  // time_nanos
            body.integer(10, Int64(duration()))  // duration_nanos
            body.message(11) {
                $0.integer(1, types[1].0)
                $0.integer(2, types[1].1)
            }  // period_type
            body.integer(12, Int64(nanoseconds.rounded()))  // period
            let launches = profile.runCount == 1 ? "1 launch" : "\(profile.runCount) launches"
            body.integer(13, string("launchprof: \(program), \(launches) at \(profile.sampling.rate) Hz, \(profile.sampling.timerMode)"))
            body.integer(14, types[1].0)  // default_sample_type
            for text in strings { body.string(6, text) }  // string_table
            return body.bytes
        }

        mutating func encodeSamples(into body: inout ProtobufWriter, program: String) {
            let nanoseconds = profile.nanosecondsPerWeight
            for (key, weight) in samples {
                let name = profile.threadNames[key.thread].flatMap { $0.isEmpty ? nil : $0 } ?? "thread \(key.thread)"
                var labels: [(key: Int64, text: Int64?, number: Int64?)] = [
                    (string("program"), string(program), nil), (string("thread"), string(name), nil),
                    (string("thread_id"), nil, Int64(key.thread)),
                ]
                if let phase = key.phase { labels.append((string("phase"), string(phase), nil)) }
                if profile.runCount > 1 { labels.append((string("launch"), nil, Int64(key.run + 1))) }
                for (label, value) in self.extraLabels { labels.append((string(label), string(value), nil)) }
                body.message(2) { sample in  // sample
                    sample.packed(1, key.locations)
                    sample.packed(2, [weight, UInt64((Double(weight) * nanoseconds).rounded())])
                    for label in labels {
                        sample.message(3) {
                            $0.integer(1, label.key)
                            if let text = label.text { $0.integer(2, text) }
                            if let number = label.number { $0.integer(3, number) }
                        }
                    }
                }
            }
        }

        mutating func encodeTables(into body: inout ProtobufWriter) {
            for (id, mapping) in mappings.enumerated() {
                let filename = string(mapping.module.path)
                let buildID = string(mapping.module.buildIDText)
                body.message(3) {
                    $0.integer(1, UInt64(id + 1))
                    $0.integer(2, mapping.module.start)
                    $0.integer(3, mapping.module.end)
                    $0.integer(5, filename)
                    $0.integer(6, buildID)
                    $0.boolean(7, true)  // has_functions
                    $0.boolean(8, mapping.hasFiles)
                    $0.boolean(9, mapping.hasFiles)
                    $0.boolean(10, mapping.hasInlined)
                }
            }
            for (id, location) in locations.enumerated() {
                body.message(4) {
                    $0.integer(1, UInt64(id + 1))
                    $0.integer(2, UInt64(location.mapping))
                    for line in location.lines {
                        $0.message(4) {
                            $0.integer(1, UInt64(line.function + 1))
                            $0.integer(2, Int64(line.line))
                        }
                    }
                }
            }
            for (index, frame) in profile.frames.enumerated() {
                let name = string(frame.name)
                let file = string(frame.file ?? "")
                body.message(5) {
                    $0.integer(1, UInt64(index + 1))
                    $0.integer(2, name)
                    $0.integer(3, name)  // system_name: the profile keeps demangled names only
                    $0.integer(4, file)
                    $0.integer(5, Int64(frame.line ?? 0))
                }
            }
        }

        /// The launches' sampled time, summed.
        func duration() -> UInt64 {
            traces.compactMap(\.sampling).reduce(0) { total, sampling in
                total + (sampling.stopNanoseconds > sampling.startNanoseconds ? sampling.stopNanoseconds - sampling.startNanoseconds : 0)
            }
        }
    }
}
