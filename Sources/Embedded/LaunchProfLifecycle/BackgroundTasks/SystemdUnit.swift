import Glibc
import LaunchProf
import LaunchProfFiles

/// A systemd unit file: its name and text.
public struct SystemdUnit: Sendable, Equatable {
    /// The file name, e.g. `myapp-com.example.refresh.timer`.
    public var name: String
    /// The unit file's text.
    public var contents: String
}
