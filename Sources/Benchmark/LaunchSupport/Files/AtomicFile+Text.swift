import Foundation
import LaunchProfFiles

extension AtomicFile {
    /// Writes `text` as UTF-8, synced before the rename (what launchprof
    /// writes: results, reports, baselines, exports).
    package static func write(_ text: String, to path: String) throws(AtomicFileError) {
        try write(Array(text.utf8), to: path, sync: true)
    }

    /// Writes `data`, synced before the rename.
    package static func write(_ data: Data, to path: String) throws(AtomicFileError) {
        try write([UInt8](data), to: path, sync: true)
    }
}
