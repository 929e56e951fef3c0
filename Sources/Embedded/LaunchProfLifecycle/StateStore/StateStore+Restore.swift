import Glibc
import LaunchProf

extension StateStore {
    /// Restores the snapshot of `kind`, discarding one that is too old,
    /// from an incompatible version, or corrupt (``StateRestoration/discarded``
    /// says which; never a crash).
    ///
    /// The first call in a process also learns how the previous run ended
    /// and marks this run as started, so that a crash before the next clean
    /// shutdown is known to the run after; it also removes temporary files
    /// that a crash in the middle of a save left behind.
    public func restore(_ kind: StateKind = .complete) -> StateRestoration {
        let previous = beginRun()
        let path = path(for: kind)
        let bytes: [UInt8]
        switch FileText.bytes(path, limit: StateFile.maximumFileSize) {
        case .success(let read): bytes = read
        case .failure(let error) where error.isMissing:
            return StateRestoration(snapshot: nil, discarded: nil, previousRun: previous)
        case .failure(let error):
            return StateRestoration(snapshot: nil, discarded: Self.discard(path, error), previousRun: previous)
        }
        switch validate(bytes, path: path) {
        case .success(let snapshot): return StateRestoration(snapshot: snapshot, discarded: nil, previousRun: previous)
        case .failure(let discard): return StateRestoration(snapshot: nil, discarded: discard, previousRun: previous)
        }
    }

    /// Why a file that could not be read is not restored.
    private static func discard(_ path: String, _ error: FileReadError) -> StateDiscard {
        switch error {
        case .system(let code): .unreadable(path: path, errno: code)
        case .notRegular(let kind): .notRegularFile(path: path, kind: kind)
        case .tooLarge(let limit): .tooLarge(path: path, limit: limit)
        }
    }

    private func validate(_ bytes: [UInt8], path: String) -> Result<StateSnapshot, StateDiscard> {
        let contents: StateFile.Contents
        switch StateFile.decode(bytes) {
        case .success(let decoded): contents = decoded
        case .failure(.corrupt(let reason)): return .failure(.corrupt(path: path, reason: reason))
        case .failure(.unsupportedFormat(let version)): return .failure(.unsupportedFormat(path: path, version: version))
        }
        guard isCompatible(contents.appVersion) else {
            return .failure(.incompatibleVersion(path: path, found: contents.appVersion, expected: appVersion))
        }
        let now = Self.realtimeNanoseconds()
        // A snapshot from the future (the clock was set back) counts as new.
        let age = Duration.nanoseconds(Int64(clamping: now > contents.savedAtNanoseconds ? now - contents.savedAtNanoseconds : 0))
        guard age <= maximumAge else { return .failure(.tooOld(path: path, age: age, maximumAge: maximumAge)) }
        return .success(
            StateSnapshot(
                bytes: contents.payload, kind: contents.kind, appVersion: contents.appVersion,
                savedAtNanoseconds: contents.savedAtNanoseconds, age: age, savedAtCleanShutdown: contents.cleanShutdown))
    }

    /// How the previous run ended; decided once per process, which then
    /// leaves its own run marker.
    public var previousRun: PreviousRun { beginRun() }

    private func beginRun() -> PreviousRun {
        previousRunOnceValue { () -> PreviousRun in
            removeStaleTemporaries()
            let marker = runMarkerPath
            let previous: PreviousRun
            if access(marker, F_OK) == 0 {
                previous = .endedUncleanly
            } else if case .success(let bytes) = FileText.bytes(path(for: .complete), limit: StateFile.maximumFileSize),
                case .success(let contents) = StateFile.decode(bytes)
            {
                previous = contents.cleanShutdown ? .endedCleanly : .unknown
            } else {
                previous = access(path(for: .complete), F_OK) == 0 ? .unknown : PreviousRun.none
            }
            var pid = Array("\(getpid())\n".utf8)
            // O_NONBLOCK: a FIFO planted at the marker's path fails the open
            // (ENXIO) instead of blocking the launch until a reader comes.
            let fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
            if fd >= 0 {
                _ = pid.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
            return previous
        }
    }

    /// `<file>.tmp.<pid>.<random>` files (AtomicFile's) of processes that no
    /// longer exist.
    private func removeStaleTemporaries() {
        StaleTemporaries.remove(in: directory, of: StateKind.allCases.map { "\(name).\($0 == .quick ? "quick" : "state")" })
    }

    static func realtimeNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec))
    }
}

extension StateStore {
    fileprivate func previousRunOnceValue(_ compute: () -> PreviousRun) -> PreviousRun {
        previousRunOnce.withLock { value in
            if let value { return value }
            let computed = compute()
            value = computed
            return computed
        }
    }
}
