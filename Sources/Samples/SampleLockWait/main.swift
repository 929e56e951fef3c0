// lp-sample-lock-wait: a launch that waits on a lock another thread holds.
//
// The main thread starts a loader thread, which takes the catalog lock and
// builds the catalog (CPU work) while it holds it. The main thread prepares
// its settings, then needs the catalog: it blocks on the lock (a futex wait,
// off CPU) until the loader lets go, and marks launch complete. A CPU-time
// profile shows the loader's work and nothing of the main thread's wait;
// `launchprof profile --clock wall` shows the wait, off CPU, under the call
// that waited (docs/sampling.md).
//
//   lp-sample-lock-wait [--hold-ms N]
//
// --hold-ms N: the loader holds the lock for N ms of its CPU time (default 60).
import Glibc
import LaunchProf

LaunchTracker.recordLaunchStart()

func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-lock-wait: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func holdMilliseconds() -> Int {
    var arguments = CommandLine.arguments.dropFirst()
    var milliseconds = 60
    while let argument = arguments.popFirst() {
        switch argument {
        case "--hold-ms":
            guard let text = arguments.popFirst(), let number = Int(text), (0...60_000).contains(number) else {
                fail("--hold-ms needs a whole number of milliseconds from 0 to 60000")
            }
            milliseconds = number
        case "-h", "--help":
            print("usage: lp-sample-lock-wait [--hold-ms N]")
            exit(0)
        default: fail("unknown argument '\(argument)' (try --help)")
        }
    }
    return milliseconds
}

func threadCPUMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
}

/// The loader's work while it holds the lock: `milliseconds` of its CPU time.
@inline(never)
func buildCatalog(milliseconds: Int) -> UInt64 {
    let end = threadCPUMilliseconds() + Double(milliseconds)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    repeat {
        for value in 0..<10_000 as Range<UInt64> { hash = (hash ^ value) &* 0x100_0000_01b3 }
    } while threadCPUMilliseconds() < end
    return hash
}

final class Loader: @unchecked Sendable {
    // @unchecked: `catalog` is written by the loader before it unlocks and
    // read by the main thread after it locked; the mutex orders the two. The
    // lock and the semaphore (posted once the loader holds the lock) live at
    // fixed addresses for the whole launch.
    let milliseconds: Int
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    let taken = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    var catalog: UInt64 = 0

    init(milliseconds: Int) {
        self.milliseconds = milliseconds
        pthread_mutex_init(lock, nil)
        sem_init(taken, 0, 0)
    }

    func run() {
        pthread_mutex_lock(lock)
        sem_post(taken)
        catalog = buildCatalog(milliseconds: milliseconds)
        pthread_mutex_unlock(lock)
    }
}

/// The main thread's own start-up work, done while the loader runs.
@inline(never)
func prepareSettings() -> [String: Int] {
    var settings: [String: Int] = [:]
    for number in 0..<2_000 { settings["setting-\(number)"] = number }
    return settings
}

/// Blocks on the lock the loader holds: the launch's wait.
@inline(never)
func waitForCatalog(_ loader: Loader) -> UInt64 {
    pthread_mutex_lock(loader.lock)
    defer { pthread_mutex_unlock(loader.lock) }
    return loader.catalog
}

/// Starts the loader on a thread of its own (from a function, so that its
/// closure is not isolated to the main actor as top-level code is).
func startLoader(_ loader: Loader) -> pthread_t {
    var thread = pthread_t()
    let started = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Loader>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passUnretained(loader).toOpaque())
    guard started == 0 else { fail("cannot start the loader thread: \(String(cString: strerror(started)))") }
    return thread
}

let loader = Loader(milliseconds: holdMilliseconds())
let thread = startLoader(loader)
while sem_wait(loader.taken) != 0 && errno == EINTR {}
let settings = prepareSettings()
let catalog = waitForCatalog(loader)
LaunchTracker.recordLaunchComplete()
pthread_join(thread, nil)
print("lp-sample-lock-wait: ready, \(settings.count) settings, catalog \(catalog % 1000)")
