import Foundation
import Glibc
import LaunchProfFormat
import LaunchSupport

/// Measures the dynamic loader's time on each shared library of a target's
/// launch: launches it `launches` times with liblaunchprof-audit.so in
/// LD_AUDIT (warm, or cold with the page cache evicted before each launch as
/// cold runs do), reads each launch's channel (`LoaderLaunch`) and keeps
/// the medians (``LoaderProfile``). These launches are never measured runs.
package struct LoaderAudit: Sendable {
    /// The audit library.
    package var library: String
    /// Launches per mode.
    package var launches: Int
    /// Each launch is killed if not over by then.
    package var timeout: Duration
    /// The command's spawner, which starts every audited launch.
    package var spawner: Spawner

    /// An audit of `launches` launches per mode with the audit library at
    /// `library`, started through `spawner` (the command's).
    package init(library: String, launches: Int = 5, timeout: Duration = RunDefaults.timeout, spawner: Spawner) {
        self.library = library
        self.launches = max(1, launches)
        self.timeout = timeout
        self.spawner = spawner
    }

    /// The file's name, and where it is looked for (`CompanionFile`).
    package static let libraryName = "liblaunchprof-audit.so"

    /// The audit library beside launchprof (or $LAUNCHPROF_AUDIT_LIBRARY).
    package static func locateLibrary() throws(LoaderAuditError) -> String {
        let search = CompanionFile.auditLibrary.locate(mode: R_OK)
        guard let path = search.path else {
            let tried = search.tried.isEmpty ? "" : " (tried \(search.tried.joined(separator: ", ")))"
            throw .missingLibrary(reason: "not found\(tried)\(search.problem.map { ": \($0)" } ?? "")")
        }
        return path
    }

    /// The profile of `target` in `mode`; `evictor` evicts before each cold launch.
    package func profile(
        _ target: LaunchTarget, mode: LaunchMode, evictor: PageCacheEvictor? = nil
    ) throws(LoaderAuditError)
        -> LoaderProfile
    {
        let command = target.arguments.map(\.string).joined(separator: " ")
        let directory: String
        do {
            directory = try PrivateDirectory.make(prefix: "launchprof-loader")
        } catch {
            throw .socket(reason: "\(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var measured: [LoaderLaunch] = []
        var notes: [String] = []
        var stuck = Set<String>()
        for index in 0..<launches {
            if mode == .cold {
                do {
                    let report = try (evictor ?? PageCacheEvictor()).prepare(target: target)
                    stuck.formUnion(
                        (report?.files ?? []).filter { $0.expected != true && $0.totalPages > 0 && $0.residentPages * 10 > $0.totalPages }
                            .map { ($0.path as NSString).lastPathComponent })
                } catch {
                    throw .launch(command: command, reason: "cannot evict its files for a cold launch: \(error)")
                }
            }
            measured.append(try launch(target, directory: directory, index: index, command: command))
        }
        var weights = Self.relocationWeights(measured.flatMap { $0.objects.map(\.path) })
        if let program = Self.executable(target) { weights[""] = Self.relocationWeights([program])[program] }
        if !stuck.isEmpty {
            notes.append(
                "not fully cold: \(stuck.sorted().joined(separator: ", ")) stayed more than 10% cached after eviction "
                    + "(mapped by other processes, whose pages the kernel keeps)")
        }
        if !measured.allSatisfy(\.constructorsSplit) {
            notes.append("the loader's debug output was not found: constructors are timed in total, not by library")
        }
        guard let profile = LoaderProfile.summarize(measured, mode: mode, weights: weights, notes: notes) else {
            throw .noChannel(command: command)
        }
        return profile
    }

    /// One audited launch.
    private func launch(
        _ target: LaunchTarget, directory: String, index: Int, command: String
    ) throws(LoaderAuditError)
        -> LoaderLaunch
    {
        let socket = "\(directory)/audit-\(index).sock"
        let channel = try LoaderChannel(path: socket)
        var run = target
        let audit = run.environment["LD_AUDIT"].map { $0.isEmpty ? library : "\(library):\($0)" } ?? library
        run.environment["LD_AUDIT"] = audit
        run.environment["LD_DEBUG"] = "files"
        run.environment["LD_DEBUG_OUTPUT"] = "\(directory)/ld-\(index)"
        run.environment[LP_AUDIT_SOCKET_VARIABLE] = socket
        // The target's own ready probe and socket activation: a server is
        // stopped once ready, long after la_preinit sent its last record.
        let observed: ObservedRun
        do {
            observed = try spawner.run(RunRequest(target: run, timeout: timeout))
        } catch {
            throw .launch(command: command, reason: "\(error)")
        }
        guard let datagrams = try channel.datagrams(from: observed.pid, source: "launch \(index + 1) of '\(command)'") else {
            throw .noChannel(command: command)
        }
        return try LoaderLaunch.parse(datagrams, source: "launch \(index + 1) of '\(command)'")
    }

    /// The program's file: its first argument, looked up in PATH when it has no slash.
    static func executable(_ target: LaunchTarget) -> String? {
        guard !target.useShell, let first = target.arguments.first?.string, !first.isEmpty else { return nil }
        if first.contains("/") { return first }
        let path = target.environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(first)" }.first { access($0, X_OK) == 0 }
    }

    /// Each object's share of the relocation time, from its dynamic section:
    /// a symbol relocation (a lookup through every library in scope) counts
    /// 1, a relative one (an add) 0.1, as do PLT slots bound lazily; objects
    /// that cannot be read count 0. An estimate, and labelled so.
    static func relocationWeights(_ paths: [String]) -> [String: Double] {
        var weights: [String: Double] = [:]
        for path in Set(paths) where !path.isEmpty {
            guard let image = try? ELFImage.read(path: path) else { continue }
            let counts = image.relocations
            let symbolic = Double(counts.entries - counts.relative) + (counts.bindNow ? Double(counts.plt) : 0)
            let cheap = Double(counts.relative) + Double(counts.packedRelativeBytes / 8) * 4 + (counts.bindNow ? 0 : Double(counts.plt))
            weights[path] = symbolic + 0.1 * cheap
        }
        return weights
    }
}

/// Why the loader's time by library could not be measured or read. Every
/// case names its input and what is wrong.
package enum LoaderAuditError: Error, Equatable, CustomStringConvertible {
    /// liblaunchprof-audit.so was not found (the paths tried, or why).
    case missingLibrary(reason: String)
    /// The socket the audit library reports to could not be made.
    case socket(reason: String)
    /// The launch could not be started or failed.
    case launch(command: String, reason: String)
    /// The program's loader never handed over a channel: a static program,
    /// a loader without LD_AUDIT (musl), or a setuid program.
    case noChannel(command: String)
    /// The channel's datagrams are not what the audit library writes.
    case malformed(source: String, problem: String)
    /// A record every launch has is missing.
    case missing(source: String, what: String)

    /// The error as a sentence that names its input.
    package var description: String {
        switch self {
        case let .missingLibrary(reason): "the loader's time by library needs liblaunchprof-audit.so: \(reason)"
        case let .socket(reason): "cannot listen for the loader's audit library: \(reason)"
        case let .launch(command, reason): "cannot launch '\(command)' for the loader's time by library: \(reason)"
        case let .noChannel(command):
            "'\(command)' loaded no audit library (LD_AUDIT): it is statically linked, setuid, or its C library has no rtld-audit"
        case let .malformed(source, problem): "the loader audit of \(source) is malformed: \(problem)"
        case let .missing(source, what): "the loader audit of \(source) has no record of \(what)"
        }
    }
}
