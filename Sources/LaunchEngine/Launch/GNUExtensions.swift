import Glibc
import LaunchAnalysis

/// glibc functions the Glibc module does not import (they need _GNU_SOURCE
/// or headers it leaves out), looked up once at run time with dlsym.
///
/// `pipe2` matters: pipe() followed by fcntl(FD_CLOEXEC) would let a spawn on
/// another thread inherit the pipe in between.
enum GNUExtensions {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    private static func lookup<Function>(_ name: String, as type: Function.Type) -> Function? {
        // A null handle is RTLD_DEFAULT: search the global symbol scope.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static let pipe2Function = lookup("pipe2", as: Pipe2.self)
    private static let addChdirFunction = lookup("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)
    private static let pidfdOpenFunction = lookup("pidfd_open", as: PidfdOpen.self)

    /// pipe2(2); ENOSYS where the symbol is missing (glibc < 2.9).
    static func pipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        guard let pipe2Function else {
            errno = ENOSYS
            return -1
        }
        return pipe2Function(ends, flags)
    }

    /// posix_spawn_file_actions_addchdir_np; ENOSYS before glibc 2.29.
    static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let addChdirFunction else { return ENOSYS }
        return addChdirFunction(actions, path)
    }

    /// pidfd_open(2) (close-on-exec), or -1 before glibc 2.36 / Linux 5.3.
    static func pidfdOpen(_ pid: pid_t) -> Int32 {
        guard let pidfdOpenFunction else { return -1 }
        return pidfdOpenFunction(pid, 0)
    }
}
