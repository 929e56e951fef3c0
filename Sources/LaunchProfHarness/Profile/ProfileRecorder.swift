import Foundation
import Glibc

/// Runs a program once with the launch sampler on and writes what it found:
/// the trace, folded stacks, a speedscope profile and a flame graph SVG.
///
/// The sampler is asked for with LAUNCHPROF_SAMPLE_HZ. The preload library
/// (liblaunchprof-preload.so) is always put in LD_PRELOAD when found: it
/// samples programs that do not link LaunchProf, and stands down in those
/// that do (they sample themselves) while still loading libunwind at
/// start-up, so every thread of theirs can be sampled too.
public struct ProfileRecorder: Sendable {
    public var rate: UInt32
    public var timeout: Duration
    public var output: OutputDisposition
    /// liblaunchprof-preload.so, or nil to run without it.
    public var preloadLibrary: String?

    public init(rate: UInt32 = 1000, timeout: Duration = .seconds(60), output: OutputDisposition = .inherit, preloadLibrary: String?) {
        self.rate = rate
        self.timeout = timeout
        self.output = output
        self.preloadLibrary = preloadLibrary
    }

    /// The files one profile produced.
    public struct Outputs: Sendable {
        public var trace: String
        public var folded: String
        public var speedscope: String
        public var flameGraph: String
    }

    /// Where liblaunchprof-preload.so is: $LAUNCHPROF_PRELOAD_LIBRARY, or
    /// beside the running launchprof executable (as SwiftPM builds them).
    public static func defaultPreloadLibrary() -> String? {
        if let path = ProcessInfo.processInfo.environment["LAUNCHPROF_PRELOAD_LIBRARY"], !path.isEmpty { return path }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let beside = executable.deletingLastPathComponent().appendingPathComponent("liblaunchprof-preload.so").path
        return access(beside, R_OK) == 0 ? beside : nil
    }

    /// Profiles `target`, writing `<base>.lptrace`, `.folded`, `.speedscope.json`
    /// and `.svg` in `directory`.
    public func profile(_ target: LaunchTarget, directory: String, base: String) throws(ProfileError) -> (RecordedLaunch, SymbolizedProfile, Outputs) {
        var target = target
        target.environment["LAUNCHPROF_SAMPLE_HZ"] = String(rate)
        if let preloadLibrary {
            guard access(preloadLibrary, R_OK) == 0 else { throw .missingPreload(path: preloadLibrary) }
            let existing = target.environment["LD_PRELOAD"] ?? ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? ""
            target.environment["LD_PRELOAD"] = existing.isEmpty ? preloadLibrary : "\(preloadLibrary):\(existing)"
        }
        let prefix = (directory as NSString).appendingPathComponent(base)
        let outputs = Outputs(
            trace: prefix + ".lptrace", folded: prefix + ".folded", speedscope: prefix + ".speedscope.json",
            flameGraph: prefix + ".svg")
        let recorded: RecordedLaunch
        do {
            recorded = try TraceRecorder(timeout: timeout, output: output).record(target, to: outputs.trace)
        } catch {
            throw .record(error)
        }
        let profile: SymbolizedProfile
        do {
            profile = try Symbolizer().symbolize(recorded.trace, name: base)
        } catch {
            throw .symbolize(error)
        }
        do {
            try AtomicWrite.write(FoldedStacks.text(of: profile), to: outputs.folded)
            try AtomicWrite.write(SpeedscopeExporter.json(of: profile), to: outputs.speedscope)
            try AtomicWrite.write(FlameGraphSVG.svg(of: profile, title: "\(base) launch (\(rate) Hz)"), to: outputs.flameGraph)
        } catch {
            throw .write(error)
        }
        return (recorded, profile, outputs)
    }
}

/// Why `launchprof profile` produced no profile.
public enum ProfileError: Error, Sendable, CustomStringConvertible {
    case missingPreload(path: String)
    case record(RecordError)
    case symbolize(Symbolizer.Failure)
    case write(AtomicWriteError)

    public var description: String {
        switch self {
        case .missingPreload(let path):
            "the preload library '\(path)' cannot be read (build it with 'swift build', or set LAUNCHPROF_PRELOAD_LIBRARY)"
        case .record(let error): error.description
        case .symbolize(let error): error.description
        case .write(let error): error.description
        }
    }
}
