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
