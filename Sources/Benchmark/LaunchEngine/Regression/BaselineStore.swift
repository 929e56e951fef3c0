import Foundation
import LaunchProfFiles
import LaunchSupport

/// Named baselines: `launchprof run --save-baseline NAME` writes the whole
/// results document (every run's raw values, the machine, the tool version,
/// the date) to `<directory>/NAME.json`; `--baseline NAME` reads it back.
/// `--baseline` also takes a path to any results JSON file.
package struct BaselineStore: Sendable {
    /// `.launchprof/baselines`, relative to the current directory by default.
    package var directory: String

    /// `.launchprof/baselines`, relative to the current directory.
    package static let defaultDirectory = ".launchprof/baselines"

    /// A store of baselines in `directory`.
    package init(directory: String = BaselineStore.defaultDirectory) { self.directory = directory }

    /// Where the baseline called `name` lives; a name with '/' or ending in
    /// `.json` is taken as a path.
    package func path(for name: String) -> String {
        Self.isPath(name) ? name : "\(directory)/\(name).json"
    }

    static func isPath(_ name: String) -> Bool { name.contains("/") || name.hasSuffix(".json") }

    /// Checks a name for `--save-baseline`: letters, digits, '.', '_' and '-', not starting with '.'.
    package static func validate(name: String) throws(BaselineError) {
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        guard !name.isEmpty, allowed, !name.hasPrefix(".") else { throw .badName(name) }
    }

    /// Writes `document` as the baseline `name`, atomically, creating the directory.
    @discardableResult
    package func save(_ document: ResultsDocument, as name: String) throws(BaselineError) -> String {
        try Self.validate(name: name)
        let path = path(for: name)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try document.writeJSON(to: path)
        } catch {
            throw .write(path: path, reason: "\(error)")
        }
        return path
    }

    /// Writes `document` as the baseline `name` with copies of its profiles'
    /// files (`NAME.profiles/`), so a later run's profiles can be compared
    /// with them after `.launchprof/profiles` was overwritten.
    @discardableResult
    package func save(
        _ document: ResultsDocument, as name: String, keepingProfiles profiles: [ProfileRecord]
    ) throws(BaselineError) -> String {
        try Self.validate(name: name)
        var document = document
        if !profiles.isEmpty {
            let folder = "\(directory)/\(name).profiles"
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .write(path: folder, reason: "\(error)")
            }
            document.profiles = try profiles.map { record throws(BaselineError) in
                var kept = record
                for path in [\ProfileRecord.folded, \.flameGraph, \.speedscope] {
                    kept[keyPath: path] = try Self.keep(record[keyPath: path], in: folder) ?? record[keyPath: path]
                }
                if let pprof = record.pprof { kept.pprof = try Self.keep(pprof, in: folder) ?? pprof }
                return kept
            }
        }
        return try save(document, as: name)
    }

    /// Copies the profile file at `source` into `folder` (same name), whole
    /// or not at all; nil when there is nothing to copy (no path, or the
    /// file is gone), so the record keeps naming the original.
    private static func keep(_ source: String, in folder: String) throws(BaselineError) -> String? {
        guard !source.isEmpty, let bytes = FileManager.default.contents(atPath: source) else { return nil }
        let copy = "\(folder)/\((source as NSString).lastPathComponent)"
        do {
            try AtomicFile.write(Array(bytes), to: copy, sync: true)
        } catch {
            throw .write(path: copy, reason: "\(error)")
        }
        return copy
    }

    /// Reads the baseline `name` (or the results file at that path).
    package func load(_ name: String) throws(BaselineError) -> ResultsDocument {
        let path = path(for: name)
        if !Self.isPath(name), access(path, F_OK) != 0 {
            let saved =
                (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasSuffix(".json") }
                .map { String($0.dropLast(5)) }.sorted() ?? []
            throw .notFound(name: name, path: path, saved: saved)
        }
        do {
            return try ResultsDocument.load(from: path)
        } catch {
            throw .unreadable(error)
        }
    }
}
