import Foundation
import LaunchSupport

extension LaunchAttribution {
    /// A shared library the launch loads on one side of a comparison only.
    package struct LibraryChange: Sendable, Equatable, Codable {
        /// The library, as the loader resolved it.
        package var path: String
        /// True: loaded now and not in the baseline; false: no longer loaded.
        package var isNew: Bool

        /// The libraries on one side only, new ones first, by name; nil when
        /// either side's are unknown. A library is matched by its file name,
        /// so one found in another directory (a rebuilt tree) is not new.
        static func changes(before: [String]?, after: [String]?) -> [LibraryChange]? {
            guard let before, let after else { return nil }
            func name(_ path: String) -> String { (path as NSString).lastPathComponent }
            let old = Set(before.map(name)), new = Set(after.map(name))
            return after.filter { !old.contains(name($0)) }.map { LibraryChange(path: $0, isNew: true) }
                + before.filter { !new.contains(name($0)) }.map { LibraryChange(path: $0, isNew: false) }
        }
    }

    /// Libraries on one side only, as sentences, each with the pre-main
    /// change beside it (and, cold, what it read from disk); from the
    /// resolved dependencies when both sides have them, else from a cold
    /// launch's reads.
    package var librarySentences: [String] {
        // Without process entry or main (a program that does not link
        // LaunchProf), pre-main is not told apart from the rest.
        let preMain =
            preMainChange.map { "; pre-main \(Self.signed($0))" }
            ?? "; the launch \(Self.signed(totalChange)) (pre-main is marked only in programs that link LaunchProf)"
        guard let libraries else { return fileSentences.map { $0 + preMain } + loaderSentences }
        return libraries.map { library in
            let name = (library.path as NSString).lastPathComponent
            guard library.isNew else { return "no longer in the launch: \(name)\(preMain)" }
            let read =
                files?.first { $0.path == library.path }?.bytesAfter.map {
                    ", \(HumanUnits.bytes($0)) read from disk per cold launch"
                } ?? ""
            return "new in the launch: \(name) (a dependency now\(read)\(loaderClause(library.path)))\(preMain)"
        } + loaderSentences
    }
}
