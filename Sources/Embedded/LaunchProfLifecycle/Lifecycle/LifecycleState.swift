import LaunchProf

/// Where a process is in its life, in the vocabulary of app lifecycles.
///
/// ```
/// launching -> active <-> inactive <-> background <-> suspended
///        (any state) -> terminating
/// ```
///
/// On Linux: `launching` lasts until `LaunchTracker.recordLaunchComplete()`;
/// `inactive` is the passage between active and background; `background` is
/// a terminal program whose process group is not the terminal's foreground
/// group (a daemon without a controlling terminal never is); `suspended` is
/// stopped by SIGTSTP (Ctrl-Z); `terminating` follows SIGTERM, SIGINT or a
/// terminal hangup. README.md has the full mapping.
public enum LifecycleState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// From process start until launch complete.
    case launching
    /// Launched and in the foreground: the normal running state.
    case active
    /// Passing between active and background, either way (quick state is saved here).
    case inactive
    /// Running, but not the terminal's foreground process group (complete state is saved on entry).
    case background
    /// Stopped by SIGTSTP until SIGCONT.
    case suspended
    /// SIGTERM, SIGINT or a terminal hangup arrived; the process is ending.
    case terminating

    public var description: String { rawValue }

    /// Whether the state machine allows going from `self` straight to `next`.
    ///
    /// Neighbours in the chain only, plus: launching may go to background (a
    /// terminal program started with `&`), and anything may end.
    public func canMove(to next: LifecycleState) -> Bool {
        switch (self, next) {
        case (.terminating, _): false
        case (_, .terminating): true
        case (.launching, .active), (.launching, .background): true
        case (.active, .inactive), (.inactive, .active): true
        case (.inactive, .background), (.background, .inactive): true
        case (.background, .suspended), (.suspended, .background): true
        default: false
        }
    }
}
