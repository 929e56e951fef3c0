/// The full label of a thread of Dispatch's root queues, from the name the
/// kernel keeps for it.
///
/// On Linux a thread's name is at most 15 bytes, and Dispatch names its
/// worker threads after the last 15 bytes of their queue's label, so the
/// pool that runs Swift concurrency's tasks (an async `main`, a server's
/// launch) shows up as `oot.default-qos`. This maps such a tail back to the
/// label it is the tail of, when only one label ends so.
package enum DispatchThreadName {
    /// The labels of Dispatch's root queues (queue.c, `_dispatch_root_queues`).
    static let rootQueueLabels: [String] = ["maintenance", "background", "utility", "default", "user-initiated", "user-interactive"]
        .flatMap { qos in ["com.apple.root.\(qos)-qos", "com.apple.root.\(qos)-qos.overcommit"] }

    /// The root queue's label `name` is the kernel's truncation of, or nil
    /// (not a root queue's, or the tail of several: `-qos.overcommit`).
    package static func rootQueueLabel(of name: String) -> String? {
        guard name.utf8.count == 15 else { return rootQueueLabels.first { $0 == name } }
        let labels = rootQueueLabels.filter { $0.hasSuffix(name) }
        return labels.count == 1 ? labels[0] : nil
    }

    /// `name` quoted as a reader should see it: `'oot.default-qos'` becomes
    /// `'com.apple.root.default-qos' (the Swift concurrency pool)`; other
    /// names are quoted as they are.
    package static func described(_ name: String) -> String {
        guard let label = rootQueueLabel(of: name) else { return "'\(name)'" }
        // The global executor runs tasks on the root queues that do not
        // overcommit; the overcommitting ones serve serial queues.
        let pool = label.hasSuffix(".overcommit") ? "a Dispatch worker thread" : "the Swift concurrency pool"
        return "'\(label)' (\(pool))"
    }
}
