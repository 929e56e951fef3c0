// lp-sample-deferred: the same launch done two ways, to measure what the
// deferred initializer and the prewarm registry save.
//
//   lp-sample-deferred [--launch naive|optimized] [--idle-delay-ms N]
//
// Both launches do identical work: critical start-up work (settings, a few
// ms), then non-critical work (a search index, a cache, analytics set-up:
// ~30 ms of real CPU work) and one expensive value needed right after launch
// (templates). The naive launch does it all before launch complete. The
// optimized launch defers the non-critical work with DeferredInitializer and
// makes the templates with PrewarmRegistry in the background, then waits for
// the deferred work before exiting, so the total work stays the same.
import Glibc
import LaunchProf
import LaunchProfDeferred

LaunchTracker.recordLaunchStart()
let signposter = Signposter(subsystem: "dev.launchprof.sample", category: "deferred-sample")

enum LaunchMode: String {
    case naive, optimized
}

struct Options {
    var mode = LaunchMode.optimized
    var idleDelayMilliseconds = 20
}

func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-deferred: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func value(for flag: String) -> String {
        guard let next = arguments.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--launch":
            let text = value(for: argument)
            guard let mode = LaunchMode(rawValue: text) else {
                fail("--launch must be 'naive' or 'optimized', got '\(text)'")
            }
            options.mode = mode
        case "--idle-delay-ms":
            let text = value(for: argument)
            guard let number = Int(text), number >= 0 else {
                fail("--idle-delay-ms needs a whole number of milliseconds, got '\(text)'")
            }
            options.idleDelayMilliseconds = number
        case "-h", "--help":
            print("usage: lp-sample-deferred [--launch naive|optimized] [--idle-delay-ms N]")
            exit(0)
        default: fail("unknown argument '\(argument)' (try --help)")
        }
    }
    return options
}

// MARK: - The work (real CPU work, deterministic, sized by iterations)

/// A pseudo-random stream, so every run does exactly the same work.
struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

func words(_ count: Int, seed: UInt64) -> [String] {
    var generator = Generator(state: seed)
    let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    return (0..<count).map { _ in
        var bits = generator.next()
        let length = 4 + Int(bits >> 60)
        var word: [UInt8] = []
        for _ in 0..<length {
            word.append(letters[Int(bits % 26)])
            bits /= 26
        }
        return String(decoding: word, as: UTF8.self)
    }
}

/// Critical: what the program needs before it can serve anybody.
func loadSettings() -> [String: Int] {
    var settings: [String: Int] = [:]
    for (index, word) in words(10_000, seed: 1).enumerated() { settings[word] = index }
    return settings
}

/// Non-critical: a prefix index over a word list.
func buildSearchIndex() -> Int {
    var index: [Substring: [Int]] = [:]
    for (position, word) in words(24_000, seed: 2).sorted().enumerated() {
        index[word.prefix(3), default: []].append(position)
    }
    return index.count
}

/// Non-critical: a cache filled with computed lines.
func warmCache() -> UInt64 {
    var cache = [UInt64](repeating: 0, count: 64 * 1024)
    for round in 0..<300 {
        for i in cache.indices { cache[i] = cache[i] &* 31 &+ UInt64(i ^ round) }
    }
    return cache.reduce(0, &+)
}

/// Non-critical: "analytics" set-up, hashing a batch of events (FNV-1a:
/// Swift's Hasher is seeded per process, and the checksum must not be).
func setUpAnalytics() -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for word in words(40_000, seed: 3) {
        for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    return Int(truncatingIfNeeded: hash >> 1)
}

/// Needed right after launch, expensive to make: rendered templates.
func renderTemplates() -> [String] {
    words(25_000, seed: 4).map { "<li>\($0.uppercased())</li>" }
}

// MARK: - The two launches

/// What a launch did, for the summary line.
struct LaunchOutcome {
    var checksum = 0
    var deferredRuns: [(String, UInt64)] = []
    var deferredStart: String?
    var prewarm: String?
}

/// Runs `work` inside an interval and returns how long it took.
func timed(_ name: StaticString, _ work: () -> Void) -> UInt64 {
    let start = monotonicNow()
    signposter.withIntervalSignpost(name, around: work)
    return monotonicNow() - start
}

func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func naiveLaunch() -> LaunchOutcome {
    var outcome = LaunchOutcome()
    let settings = signposter.withIntervalSignpost("load settings") { loadSettings() }
    LaunchTracker.recordMilestone("settings loaded")
    var index = 0, cache: UInt64 = 0, analytics = 0
    outcome.deferredRuns = [
        ("search index", timed("search index") { index = buildSearchIndex() }),
        ("cache", timed("cache") { cache = warmCache() }),
        ("analytics", timed("analytics") { analytics = setUpAnalytics() }),
    ]
    var templates: [String] = []
    let templatesTime = timed("templates") { templates = renderTemplates() }
    LaunchTracker.recordLaunchComplete()
    // The first request, right after launch.
    outcome.checksum = settings.count &+ templates.count &+ index &+ Int(truncatingIfNeeded: cache) &+ analytics
    outcome.prewarm = "templates made eagerly in \(milliseconds(templatesTime))"
    return outcome
}

func optimizedLaunch(idleDelay: Duration) -> LaunchOutcome {
    var outcome = LaunchOutcome()
    let registry = PrewarmRegistry()
    let templates = registry.register("templates", budget: .milliseconds(50)) { renderTemplates() }
    do { try registry.prewarm() } catch { fail("prewarm: \(error)") }

    let settings = signposter.withIntervalSignpost("load settings") { loadSettings() }
    LaunchTracker.recordMilestone("settings loaded")

    let results = Results()
    let deferred = DeferredInitializer(configuration: DeferredConfiguration(idleDelay: idleDelay))
    deferred.deferUntilIdle("search index", priority: .high) { results.add(buildSearchIndex()) }
    deferred.deferUntilIdle("cache") { results.add(Int(truncatingIfNeeded: warmCache())) }
    deferred.deferUntilIdle("analytics", priority: .low) { results.add(setUpAnalytics()) }
    LaunchTracker.recordLaunchComplete()

    // The first request, right after launch, needs the templates.
    let rendered: [String]
    do { rendered = try templates.value } catch { fail("templates: \(error)") }
    // Before exiting, let the deferred work finish (the same total work).
    deferred.waitUntilFinished()

    outcome.checksum = settings.count &+ rendered.count &+ results.sum
    outcome.deferredRuns = deferred.tasks.map { ($0.name, $0.runNanoseconds ?? 0) }
    if let start = deferred.startReport, let complete = LaunchTracker.launchCompleteNanoseconds {
        outcome.deferredStart = "started \(milliseconds(start.nanoseconds - complete)) after launch complete (\(start.reason))"
    }
    let report = templates.report
    outcome.prewarm = "templates \(report.firstUse?.description ?? "unused"), made in \(milliseconds(report.makeNanoseconds ?? 0))"
    return outcome
}

/// Results of the deferred tasks, added from their thread.
final class Results: @unchecked Sendable {
    // @unchecked: written by one deferred thread at a time (limit 1), read by
    // the main thread after waitUntilFinished(), which orders the accesses.
    private(set) var sum = 0
    func add(_ value: Int) { sum &+= value }
}

func milliseconds(_ nanoseconds: UInt64) -> String {
    let tenths = (nanoseconds + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
}

// MARK: - Main

let options = parseOptions()
let outcome =
    switch options.mode {
    case .naive: naiveLaunch()
    case .optimized: optimizedLaunch(idleDelay: .milliseconds(options.idleDelayMilliseconds))
    }
let ready = (LaunchTracker.launchCompleteNanoseconds ?? 0) - LaunchTracker.processEntryNanoseconds
let deferredTotal = outcome.deferredRuns.reduce(0) { $0 + $1.1 }
let runs = outcome.deferredRuns.map { "\($0.0) \(milliseconds($0.1))" }.joined(separator: ", ")
var line = "lp-sample-deferred: \(options.mode.rawValue) launch, ready \(milliseconds(ready)) after entry; "
line += "non-critical work \(milliseconds(deferredTotal)) (\(runs))"
if let start = outcome.deferredStart { line += ", \(start)" }
line += "; \(outcome.prewarm ?? ""); checksum \(outcome.checksum.magnitude % 1000)"
print(line)
