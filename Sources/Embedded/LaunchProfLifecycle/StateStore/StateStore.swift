import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfFiles

/// Saves and restores a program's restoration state: opaque bytes, written
/// atomically (temporary file, fsync, rename, fsync of the directory), so a
/// crash at any moment leaves the previous snapshot or the new one, never
/// half of one.
///
/// ```swift
/// let store = try StateStore(appName: "my-server", appVersion: "1.4")
/// let restored = store.restore()                 // once, at launch
/// if let snapshot = restored.snapshot { model.load(snapshot.bytes) }
/// else if let why = restored.discarded { log("\(why)") }
/// Lifecycle.shared.preserveState(in: store) { model.encoded() }
/// ```
///
/// Files live in `$STATE_DIRECTORY` (systemd's `StateDirectory=`), else
/// `$XDG_STATE_HOME/<app>`, else `~/.local/state/<app>`: `<name>.state` (the
/// complete snapshot), `<name>.quick` and `<name>.running` (present while a
/// run that called ``restore(_:)`` has not shut down cleanly).
public final class StateStore: Sendable {
    /// The directory holding the files.
    public let directory: String
    /// File name stem (default "state").
    public let name: String
    /// Written into every snapshot; compared on restore.
    public let appVersion: String
    /// Snapshots older than this are discarded (default 24 hours).
    public let maximumAge: Duration
    let isCompatible: @Sendable (String) -> Bool
    let previousRunOnce = Locked<PreviousRun?>(nil)

    /// A store for `appName`, in the first state directory the environment
    /// names, or in `directory`. `isCompatible` decides which saved app
    /// versions can be restored (default: the same version only).
    public init(
        appName: String, appVersion: String, name: String = "state", directory: String? = nil,
        maximumAge: Duration = .seconds(24 * 3_600), isCompatible: (@Sendable (String) -> Bool)? = nil
    ) throws(StateStoreError) {
        for (label, value) in [("app name", appName), ("name", name)] {
            if value.isEmpty { throw .invalidName(value, reason: "the \(label) is empty") }
            if value.contains("/") || value == "." || value == ".." || value.utf8.contains(0) {
                throw .invalidName(value, reason: "the \(label) must be one path component (no '/', not '.' or '..')")
            }
        }
        let resolved: String
        if let directory { resolved = directory } else { resolved = try Self.defaultDirectory(appName: appName) }
        try Self.makeDirectories(resolved)
        self.directory = resolved
        self.name = name
        self.appVersion = appVersion
        self.maximumAge = maximumAge
        self.isCompatible = isCompatible ?? { [appVersion] in $0 == appVersion }
    }

    /// The file of one kind of snapshot.
    public func path(for kind: StateKind) -> String { "\(directory)/\(name).\(kind == .quick ? "quick" : "state")" }

    var runMarkerPath: String { "\(directory)/\(name).running" }

    // MARK: - Saving

    /// The largest state file saved or restored: 128 MiB (payload, app
    /// version and 56 bytes of header and checksum).
    public static var maximumFileSize: Int { StateFile.maximumFileSize }

    /// Saves `bytes` as the snapshot of `kind`. With `cleanShutdown`, also
    /// records that this run ended cleanly (the next run's ``PreviousRun``).
    public func save(_ bytes: [UInt8], kind: StateKind = .complete, cleanShutdown: Bool = false) throws(StateStoreError) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let contents = StateFile.Contents(
            savedAtNanoseconds: UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec)),
            kind: kind, cleanShutdown: cleanShutdown, appVersion: appVersion, writerPID: UInt32(getpid()),
            payload: bytes)
        let encoded = StateFile.encode(contents)
        guard encoded.count <= StateFile.maximumFileSize else { throw .tooLarge(bytes: bytes.count, limit: StateFile.maximumFileSize) }
        do {
            // 0600: restoration state is the program's private data.
            try AtomicFile.write(encoded, to: path(for: kind), sync: true, mode: 0o600)
        } catch {
            throw .write(error)
        }
        if cleanShutdown { unlink(runMarkerPath) }
        try syncDirectory()
    }

    /// Removes the snapshot of `kind` (nothing to restore next time).
    public func remove(_ kind: StateKind = .complete) {
        unlink(path(for: kind))
    }

    private func syncDirectory() throws(StateStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .syncDirectory(path: directory, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .syncDirectory(path: directory, errno: errno) }
    }

    // MARK: - Directories

    /// `$STATE_DIRECTORY` (first of its colon-separated list), else
    /// `$XDG_STATE_HOME/<app>` (absolute only, as the XDG spec says), else
    /// `$HOME/.local/state/<app>`.
    static func defaultDirectory(appName: String) throws(StateStoreError) -> String {
        func variable(_ name: String) -> String? {
            // secure_getenv: a setuid program must not let its caller choose
            // where its state is written.
            guard let value = lp_secure_getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        if let systemd = variable("STATE_DIRECTORY")?.split(separator: ":").first { return String(systemd) }
        if let xdg = variable("XDG_STATE_HOME"), xdg.hasPrefix("/") { return "\(xdg)/\(appName)" }
        if let home = variable("HOME") { return "\(home)/.local/state/\(appName)" }
        throw .noStateDirectory
    }

    /// `mkdir -p` with mode 0700 for directories it creates.
    static func makeDirectories(_ path: String) throws(StateStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/\(component)"
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .createDirectory(path: prefix, errno: errno)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .createDirectory(path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .createDirectory(path: path, errno: ENOTDIR) }
    }
}
