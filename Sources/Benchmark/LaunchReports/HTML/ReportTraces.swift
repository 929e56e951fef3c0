import LaunchAnalysis
import LaunchEngine

#if canImport(Glibc)
import Glibc
#endif

/// Reads the traces given to a report and decides which target each belongs to.
///
/// `NAME=PATH` names the target. A bare `PATH` matches the target whose name
/// or program is the file's name without its extension (`launchprof record`
/// writes `<program>.lptrace`), or else whose program the trace's process
/// name is (Linux keeps the first 15 bytes of it).
package enum ReportTraces {
    /// Matches each `--trace` argument to a target of `document`: by `NAME=PATH`, or by the program that wrote it.
    package static func assign(_ arguments: [String], to document: ResultsDocument) throws(ReportTraceError) -> [String: Trace] {
        var targets: [String: LaunchTarget] = [:]
        var names: [String] = []
        for result in document.results where targets[result.target.name] == nil {
            targets[result.target.name] = result.target
            names.append(result.target.name)
        }
        var assigned: [String: Trace] = [:]
        for argument in arguments {
            let (name, path) = split(argument, names: names)
            let trace: Trace
            do {
                trace = try TraceReader.read(path: path)
            } catch {
                throw .unreadable(error)
            }
            let target: String
            if let name {
                guard targets[name] != nil else { throw .unknownTarget(argument: argument, name: name, targets: names) }
                target = name
            } else {
                target = try match(trace, path: path, names: names, targets: targets)
            }
            if let earlier = assigned[target] { throw .twice(target: target, first: earlier.path, second: path) }
            assigned[target] = trace
        }
        return assigned
    }

    /// (target, path) for `NAME=PATH` when NAME is a target or the argument
    /// is not an existing file; otherwise the whole argument is a path.
    static func split(_ argument: String, names: [String]) -> (name: String?, path: String) {
        guard let equals = argument.firstIndex(of: "=") else { return (nil, argument) }
        let name = String(argument[..<equals])
        let path = String(argument[argument.index(after: equals)...])
        if names.contains(name) { return (name, path) }
        return access(argument, F_OK) == 0 ? (nil, argument) : (name, path)
    }

    private static func match(
        _ trace: Trace, path: String, names: [String], targets: [String: LaunchTarget]
    ) throws(ReportTraceError) -> String {
        let stem = fileStem(path)
        let byFile = names.filter { $0 == stem || program(of: targets[$0]!) == stem }
        if byFile.count == 1 { return byFile[0] }
        if byFile.count > 1 { throw .ambiguous(path: path, candidates: byFile) }
        let process = trace.threadNames[trace.header.pid]
        let byProcess = names.filter { name in
            guard let process, !process.isEmpty else { return false }
            return String(program(of: targets[name]!).utf8.prefix(15)) == process
        }
        if byProcess.count == 1 { return byProcess[0] }
        if byProcess.count > 1 { throw .ambiguous(path: path, candidates: byProcess) }
        throw .noMatch(path: path, process: process, targets: names)
    }

    /// The program's file name: argv[0]'s last component.
    private static func program(of target: LaunchTarget) -> String {
        // With --shell the "argument" is a command string: its first word.
        let command = target.arguments.first?.string ?? ""
        let first = target.useShell ? String(command.split(separator: " ").first ?? "") : command
        return String(first.split(separator: "/").last ?? "")
    }

    /// "runs/app.lptrace" -> "app".
    private static func fileStem(_ path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "")
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
