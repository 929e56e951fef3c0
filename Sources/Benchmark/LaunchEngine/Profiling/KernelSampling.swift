/// Sampling a launch's stacks in the kernel, as `perf record -- prog` does
/// (`LP_SPAWN_FLAG_SAMPLE`, docs/sampling.md): the spawner opens a
/// task-clock sampling event per CPU that the launched tree inherits, and
/// copies what the kernel writes (each sample's user registers and the top
/// of its user stack, and the mappings and names of the tree) to `sink`.
/// Nothing runs in the program; launchprof unwinds the copies after the run
/// (`KernelSampleFile`).
package struct KernelSampling: Sendable, Equatable {
    /// Samples per CPU-second of each thread.
    package var rate: UInt32
    /// Bytes of user stack the kernel copies with each sample: the deepest
    /// stack the unwinder can follow. perf's default is 8 KiB.
    package var stackBytes: UInt32
    /// The file the spawner writes the records to, open already: nothing
    /// is opened by name at the spawn.
    package var sink: SampleSink
    /// The launch is stopped after ready (any probe but exit): the spawner
    /// reads the tree's mappings then, instead of the kernel recording every
    /// mmap as it happens (`LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY`: ~0.2 ms
    /// less of a 25 ms launch).
    package var mapsAtReady = false

    /// The stack bytes copied per sample by default: 16 KiB, enough for the
    /// 40–60 frames of a Swift launch on a pool thread.
    package static let defaultStackBytes: UInt32 = 16384

    /// Sampling at `rate`, written to `sink`.
    package init(rate: UInt32, sink: SampleSink, stackBytes: UInt32 = KernelSampling.defaultStackBytes) {
        self.rate = rate
        self.sink = sink
        self.stackBytes = stackBytes
    }

    /// The same settings, written to the same sink (one open file).
    package static func == (left: KernelSampling, right: KernelSampling) -> Bool {
        left.rate == right.rate && left.stackBytes == right.stackBytes && left.mapsAtReady == right.mapsAtReady
            && left.sink === right.sink
    }
}
