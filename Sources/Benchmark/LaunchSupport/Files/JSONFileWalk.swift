import Foundation

/// The `.json` files under a directory: how `history` and the fleet report
/// find the results files in the directories they are given.
package enum JSONFileWalk {
    /// The regular `.json` files under `directory`, at any depth, sorted by
    /// path; nil when the directory cannot be read. The walk stops as soon
    /// as it has found more than `limit`, so a caller with a cap sees
    /// `limit + 1` files and says there are too many without reading the rest.
    package static func files(under directory: String, limit: Int = .max) -> [String]? {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return nil }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".json") else { continue }
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files.append(path)
            if files.count > limit { break }
        }
        return files.sorted()
    }
}
