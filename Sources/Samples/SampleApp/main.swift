// lp-sample-app: an instrumented Swift program with a realistic launch.
//
// It reads a config file, builds an in-memory index, starts worker threads
// that warm their caches, and marks each step as a milestone or interval.
//
//   lp-sample-app [--config FILE] [--words N] [--workers N] [--extra-ms N]
//                 [--hot-ms N] [--milestones N] [--exit-before-ready] [--then COMMAND]
//
// --hot-ms N spends N ms in computeLaunchHotspot (a known top frame for the
// sampler's tests); --milestones N records N more milestones ("flood 0"
// to "flood N-1", distinct names) before launch complete (a program that
// floods launchprof with records); --exit-before-ready exits before launch complete;
// --then COMMAND runs `/bin/sh -c COMMAND` after launch complete and waits
// for it (a child that must not inherit the harness's LAUNCHPROF_* variables).
//
// LP_SAMPLE_EXTRA_MS=N adds N ms of busy work before launch complete (used to
// show that regression checks catch a real slowdown), in an interval of its
// own; LP_SAMPLE_SLOW_INDEX_MS=N adds it inside "build index" (used to show
// that the attribution of a change names the interval that grew);
// LP_SAMPLE_WAIT_MS=N makes "read config" wait N ms for an answer from
// another thread, blocked in read(2) (a wait off CPU on the main thread, as
// for a remote config service or a lock held elsewhere).
import Glibc
import LaunchProf

let signposter = Signposter(subsystem: "dev.launchprof.sample", category: "launch")
LaunchTracker.recordLaunchStart()

struct Options {
    var configPath: String?
    var words = 40_000
    var workers = 3
    var extraMilliseconds = 0
    var slowIndexMilliseconds = 0
    var waitMilliseconds = 0
    var hotMilliseconds = 0
    var floodMilestones = 0
    var exitBeforeReady = false
    var then: String?
}

func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-app: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    /// A whole number from the environment, or `default` when unset.
    func environment(_ name: String, unit: String, default value: Int) -> Int {
        guard let text = getenv(name).map({ String(cString: $0) }) else { return value }
        guard let number = Int(text), number >= 0 else { fail("\(name) must be a whole number of \(unit), got '\(text)'") }
        return number
    }
    options.extraMilliseconds = environment("LP_SAMPLE_EXTRA_MS", unit: "milliseconds", default: 0)
    options.waitMilliseconds = environment("LP_SAMPLE_WAIT_MS", unit: "milliseconds", default: 0)
    options.slowIndexMilliseconds = environment("LP_SAMPLE_SLOW_INDEX_MS", unit: "milliseconds", default: 0)
    var arguments = CommandLine.arguments.dropFirst()
    func value(for flag: String) -> String {
        guard let next = arguments.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    func number(for flag: String) -> Int {
        let text = value(for: flag)
        guard let number = Int(text), number >= 0 else { fail("\(flag) needs a whole number, got '\(text)'") }
        return number
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--config": options.configPath = value(for: argument)
        case "--words": options.words = number(for: argument)
        case "--workers": options.workers = number(for: argument)
        case "--extra-ms": options.extraMilliseconds = number(for: argument)
        case "--hot-ms": options.hotMilliseconds = number(for: argument)
        case "--milestones": options.floodMilestones = number(for: argument)
        case "--exit-before-ready": options.exitBeforeReady = true
        case "--then": options.then = value(for: argument)
        case "-h", "--help":
            print(
                "usage: lp-sample-app [--config FILE] [--words N] [--workers N] [--extra-ms N] [--hot-ms N] [--milestones N] [--exit-before-ready] [--then COMMAND]"
            )
            exit(0)
        default: fail("unknown argument '\(argument)' (try --help)")
        }
    }
    return options
}

/// Reads `key = value` lines; writes a default file first if none was given.
func readConfig(path: String?) -> [String: String] {
    let path =
        path
        ?? {
            let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            let defaultPath = "\(directory)/lp-sample-app-\(getuid()).conf"
            if access(defaultPath, R_OK) != 0, let file = fopen(defaultPath, "w") {
                fputs("# lp-sample-app defaults\nname = sample\nseed = 42\ncache_lines = 256\n", file)
                fclose(file)
            }
            return defaultPath
        }()
    guard let file = fopen(path, "r") else { fail("cannot read config '\(path)': \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var config: [String: String] = [:]
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
        let text = String(cString: line).trimmingPrefix(while: { $0 == " " })
        guard !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
        let key = text[..<equals].filter { !$0.isWhitespace }
        let value = text[text.index(after: equals)...].filter { !$0.isNewline }.trimmingPrefix(while: { $0 == " " })
        config[String(key)] = String(value)
    }
    return config
}

/// A deterministic word list indexed by prefix: real allocation and hashing.
func buildIndex(words count: Int, seed: UInt64) -> [Substring: [Int]] {
    var state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var words: [String] = []
    words.reserveCapacity(count)
    for _ in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let length = 4 + Int(state >> 60)
        var word = ""
        var bits = state
        for _ in 0..<length {
            word.append(letters[Int(bits % 26)])
            bits /= 26
        }
        words.append(word)
    }
    words.sort()
    var index: [Substring: [Int]] = [:]
    for (position, word) in words.enumerated() {
        index[word.prefix(3), default: []].append(position)
    }
    return index
}

final class Worker: @unchecked Sendable {
    // @unchecked: `checksum` is written by the worker thread before join and
    // read by the main thread after it; pthread_join orders the two.
    let number: Int
    let lines: Int
    var checksum: UInt64 = 0
    init(number: Int, lines: Int) {
        self.number = number
        self.lines = lines
    }

    func run() {
        Tracer.setCurrentThreadName("lp-worker-\(number)")
        signposter.withIntervalSignpost("warm cache") {
            var cache = [UInt64](repeating: 0, count: lines * 64)
            for round in 0..<50 {
                for i in cache.indices { cache[i] = cache[i] &* 31 &+ UInt64(i ^ round) }
            }
            checksum = cache.reduce(0, &+)
        }
    }
}

func startWorkers(_ count: Int, cacheLines: Int) -> [Worker] {
    let workers = (0..<count).map { Worker(number: $0 + 1, lines: cacheLines) }
    var threads: [pthread_t] = []
    for worker in workers {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(worker).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let worker = Unmanaged<Worker>.fromOpaque(context!).takeRetainedValue()
                worker.run()
                return nil
            }, context)
        guard result == 0 else { fail("cannot start worker thread: \(String(cString: strerror(result)))") }
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
    return workers
}

/// Spins `milliseconds` of the calling thread's own CPU time: the same work
/// whatever the app's other threads do meanwhile. (With the process's
/// clock(3), the workers running beside it ended the spin early by however
/// much CPU the scheduler gave them, so the injected work varied with the
/// machine's load, and a busy machine hid it from the attribution.)
func burn(milliseconds: Int) {
    guard milliseconds > 0 else { return }
    let end = threadCPUNanoseconds() + UInt64(milliseconds) * 1_000_000
    var spin: UInt64 = 0
    while threadCPUNanoseconds() < end { spin &+= 1 }
    if spin == 42 { print("") }  // keep the loop
}

let options = parseOptions()
/// Waits `milliseconds` for an answer from another thread, blocked in
/// read(2) on a pipe: time on the way to ready spent off CPU
/// (LP_SAMPLE_WAIT_MS).
func waitForAnswer(milliseconds: Int) {
    guard milliseconds > 0 else { return }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { fail("cannot make a pipe: \(String(cString: strerror(errno)))") }
    final class Answerer: Sendable {
        let writer: Int32
        let milliseconds: Int
        init(writer: Int32, milliseconds: Int) { (self.writer, self.milliseconds) = (writer, milliseconds) }
    }
    let answerer = Answerer(writer: ends[1], milliseconds: milliseconds)
    var thread = pthread_t()
    let started = pthread_create(
        &thread, nil,
        { context in
            let answerer = Unmanaged<Answerer>.fromOpaque(context!).takeRetainedValue()
            var delay = timespec(tv_sec: answerer.milliseconds / 1000, tv_nsec: (answerer.milliseconds % 1000) * 1_000_000)
            var left = timespec()
            while nanosleep(&delay, &left) != 0 && errno == EINTR { delay = left }
            var answer: UInt8 = 1
            _ = write(answerer.writer, &answer, 1)
            return nil
        }, Unmanaged.passRetained(answerer).toOpaque())
    guard started == 0 else { fail("cannot start a thread: \(String(cString: strerror(started)))") }
    var answer: UInt8 = 0
    while read(ends[0], &answer, 1) < 0 && errno == EINTR {}
    pthread_join(thread, nil)
    close(ends[0])
    close(ends[1])
}

let config = signposter.withIntervalSignpost("read config") { () -> [String: String] in
    waitForAnswer(milliseconds: options.waitMilliseconds)
    return readConfig(path: options.configPath)
}
LaunchTracker.recordMilestone("config loaded")

let index = signposter.withIntervalSignpost("build index") {
    burn(milliseconds: options.slowIndexMilliseconds)
    return buildIndex(words: options.words, seed: UInt64(config["seed"] ?? "") ?? 42)
}
LaunchTracker.recordMilestone("index ready")

let workers = signposter.withIntervalSignpost("start workers") {
    startWorkers(options.workers, cacheLines: Int(config["cache_lines"] ?? "") ?? 256)
}
LaunchTracker.recordMilestone("workers warm")

if options.extraMilliseconds > 0 {
    signposter.withIntervalSignpost("extra work") { burn(milliseconds: options.extraMilliseconds) }
}

if options.hotMilliseconds > 0 {
    let hot = signposter.withIntervalSignpost("hotspot") { computeLaunchHotspot(milliseconds: options.hotMilliseconds) }
    if hot == 42 { print("") }  // keep the result
}
for number in 0..<options.floodMilestones { LaunchTracker.recordMilestone(dynamicName: "flood \(number)") }
if options.exitBeforeReady { exit(0) }

LaunchTracker.recordLaunchComplete()
let checksum = workers.reduce(0) { $0 &+ $1.checksum }
print("lp-sample-app: \(config["name"] ?? "sample") ready, \(index.count) prefixes, \(workers.count) workers, checksum \(checksum % 1000)")

if let command = options.then {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
    defer { for pointer in argv { free(pointer) } }
    let result = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
    guard result == 0 else { fail("cannot run --then: \(String(cString: strerror(result)))") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}
