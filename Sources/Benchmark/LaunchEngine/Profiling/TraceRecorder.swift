import Foundation
import Glibc
import LaunchAnalysis
import LaunchProfFiles
import LaunchSupport

/// Runs a program once with tracing on (LAUNCHPROF_TRACE) and reads its trace.
///
/// With the `exit` probe (the default) it waits for the program to exit.
/// With another probe (tracer, notify, port, output) it waits until the
/// program is ready, then stops it as `launchprof run` does (SIGTERM to its
/// process group, SIGKILL after the grace period), once the trace is written:
/// LAUNCHPROF_TRACE_AT=after-ready makes a LaunchProf program write it just
/// after it says it is ready.
package struct TraceRecorder: Sendable {
    /// A launch neither ready nor exited by then is killed.
    package var timeout: Duration
    /// Where the program's output goes.
    package var output: OutputDisposition
    /// When the launch counts as done.
    package var probe: ReadyProbe
    /// How long a program stopped after ready may take to exit.
    package var grace: Duration
    /// Ctrl-C stops the program (its own process group never sees it).
    package var interrupt: InterruptMonitor?
    /// Sample the launch's stacks in the kernel at this rate, from the
    /// exec to ready (`KernelSampling`), and add them to the trace; nil: no.
    package var kernelSamplingRate: UInt32?
    /// With kernel sampling and a probe but exit: the spawner reads the
    /// launch's mappings at ready instead of the kernel recording every mmap
    /// (cheaper; `RecordError.mappingsMissed` when the program ends first).
    package var mappingsAtReady = true
    /// The command's one spawner: each launch, and the question whether its
    /// program links LaunchProf, go through it (it resolves a program once).
    package var spawner = Spawner()

    /// A recorder with these settings.
    package init(
        timeout: Duration = RunDefaults.timeout, output: OutputDisposition = .inherit, probe: ReadyProbe = .exit,
        grace: Duration = RunDefaults.grace, interrupt: InterruptMonitor? = nil
    ) {
        self.timeout = timeout
        self.output = output
        self.probe = probe
        self.grace = grace
        self.interrupt = interrupt
    }

    /// Launches `target` with its trace going to `tracePath`, waits for it to
    /// exit or be ready (killing its process group at the timeout), and reads
    /// the trace.
    ///
    /// The program writes its trace into a private directory beside
    /// `tracePath` (same file system); only a whole trace of this launch,
    /// read and checked, replaces `tracePath`, in one rename
    /// (`AtomicFile.replace`, which keeps the existing file's mode). When
    /// the program fails, writes no trace or a foreign one, or the recording
    /// is interrupted, a file already at `tracePath` (an earlier trace) is
    /// left as it was. A directory that cannot be written fails before the
    /// launch.
    package func record(_ target: LaunchTarget, to tracePath: String) throws(RecordError) -> RecordedLaunch {
        let staging = try Self.stagingDirectory(beside: tracePath)
        defer { Self.remove(staging) }
        let staged = staging + "/trace"
        let recorded = try record(target, writingTo: staged, reportedAs: tracePath)
        do {
            try AtomicFile.replace(tracePath, with: staged)
        } catch {
            throw .output(path: tracePath, reason: error.description)
        }
        return recorded
    }

    /// A private directory (0700) beside `tracePath` for the trace being
    /// written, after checking that `tracePath` itself can be replaced. Its
    /// name carries this process's pid (`NAME.recording-PID-XXXXXX`), so that
    /// one a killed launchprof stranded (SIGKILL leaves no time to remove
    /// it) is recognised and removed by the next recording of the same name.
    private static func stagingDirectory(beside tracePath: String) throws(RecordError) -> String {
        do {
            try AtomicFile.checkWritable(tracePath)
        } catch {
            throw .output(path: tracePath, reason: error.description)
        }
        let slash = tracePath.lastIndex(of: "/")
        let directory = slash.map { String(tracePath[..<$0]) } ?? "."
        let name = slash.map { String(tracePath[tracePath.index(after: $0)...]) } ?? tracePath
        let base = directory.isEmpty ? "/" : directory
        removeStranded(in: base, name: name)
        do {
            return try PrivateDirectory.make(in: base, prefix: "\(name).recording-\(getpid())")
        } catch {
            throw .output(path: tracePath, reason: "\(error)")
        }
    }

    /// Removes the staging directories of `name` in `directory` whose
    /// launchprof is gone (its pid, in the name, no longer exists).
    private static func removeStranded(in directory: String, name: String) {
        let prefix = "\(name).recording-"
        guard let listing = opendir(directory) else { return }
        var stranded: [String] = []
        while let entry = readdir(listing) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix) else { continue }
            let rest = entryName.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stranded.append(directory + "/" + entryName) }
        }
        closedir(listing)
        for path in stranded { remove(path) }
    }

    /// Removes the staging directory and what a killed program may have
    /// left in it (its trace, a temporary file of its AtomicFile write).
    private static func remove(_ directory: String) {
        if let listing = opendir(directory) {
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name != "." && name != ".." { unlink(directory + "/" + name) }
            }
            closedir(listing)
        }
        rmdir(directory)
    }

    /// ``record(_:to:)`` with the program writing to `tracePath`, and errors
    /// naming `reported`, the file the user asked for.
    private func record(
        _ target: LaunchTarget, writingTo tracePath: String, reportedAs reported: String
    ) throws(RecordError)
        -> RecordedLaunch
    {
        var target = target
        target.environment["LAUNCHPROF_TRACE"] = tracePath
        // With a ready probe, a LaunchProf program writes its trace just
        // after it tells launchprof it is ready (as `run --trace-runs` has
        // it), and the run waits for the file before stopping the program:
        // the recorded time to ready does not include the write.
        if probe != .exit { target.environment["LAUNCHPROF_TRACE_AT"] = "after-ready" }
        target.ready = probe
        let run: ObservedRun
        var sink: KernelSampling?
        if let kernelSamplingRate {
            // An anonymous file beside the trace: nothing to clean up, and
            // nothing a crash strands (SampleSink).
            let directory = (tracePath as NSString).deletingLastPathComponent
            do {
                sink = KernelSampling(rate: kernelSamplingRate, sink: try SampleSink.anonymous(in: directory.isEmpty ? "." : directory))
            } catch {
                throw .sampleSink(error)
            }
            sink?.mapsAtReady = probe != .exit && mappingsAtReady
        }
        // A program sampled by the kernel writes a trace only if it links
        // LaunchProf: the run waits after ready only for those.
        let writesTrace = sink == nil || linksLaunchProf(target)
        do {
            var request = RunRequest(
                target: target, timeout: timeout, grace: grace, output: output,
                traceFile: probe != .exit && writesTrace ? tracePath : nil)
            request.sampling = sink
            run = try spawner.run(request, interrupt: interrupt)
        } catch {
            throw .launch(error)
        }
        if run.interrupted { throw .interrupted }
        let program = target.arguments.first?.string ?? target.name
        if probe != .exit, run.wallToReady == nil {
            throw .notReady(program: program, probe: probe, failure: run.failure ?? "it exited (\(run.exit)) first")
        }
        var notes: [String] = []
        if let sink {
            // The samples up to ready (or launch complete, in the trace of a
            // LaunchProf program); a program that wrote no trace gets one of
            // its samples alone.
            let end = run.wallToReady.map { run.startNanoseconds + $0 } ?? UInt64.max
            notes = try KernelSampleFile(sink: sink.sink).attach(
                toTrace: tracePath, pid: run.pid, from: run.startNanoseconds, to: end, program: program)
        }
        guard access(tracePath, F_OK) == 0 else {
            if probe != .exit { throw .noTraceAfterReady(program: program, path: reported, probe: probe, exit: run.exit) }
            if case .exited = run.exit { throw .noTrace(program: program, path: reported, exit: run.exit) }
            throw .failed(program: program, exit: run.exit)
        }
        let trace: Trace
        do {
            trace = try TraceReader.read(path: tracePath)
        } catch {
            throw .unreadable(error)
        }
        guard Int64(trace.header.pid) == Int64(run.pid) else {
            throw .foreignTrace(program: program, path: reported, writer: trace.header.pid, launched: run.pid)
        }
        return RecordedLaunch(trace: trace, run: run, notes: notes)
    }

    /// Whether `target`'s program carries LaunchProf's ELF note (a script,
    /// or a file that cannot be read, does not).
    func linksLaunchProf(_ target: LaunchTarget) -> Bool {
        guard let program = try? spawner.resolveProgram(of: target) else { return false }
        return (try? ELFImage.read(path: program))?.linksLaunchProf ?? false
    }
}
