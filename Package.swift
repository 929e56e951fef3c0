// swift-tools-version: 6.1
import PackageDescription

/// Linker flags for an executable that maps no shared Swift library: the
/// standard library, Foundation and ICU linked statically.
let staticSwiftRuntime: [String] =
    ["-static-stdlib"]
    + [
        "--start-group", "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization",
        "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
        "-lswiftSynchronization", "-lswiftDispatch", "-ldispatch", "-lBlocksRuntime", "-lswiftCore", "--end-group",
        "-lstdc++", "-lm",
    ].flatMap { $0.hasPrefix("-static-") ? [$0] : ["-Xlinker", $0] }

/// Sanitizer builds (Scripts/checks/tsan.sh sets LAUNCHPROF_SANITIZER_BUILD): the
/// sanitizers' runtimes cannot be linked into static executables, so the
/// products that are static otherwise are linked the default way there.
let sanitizing = Context.environment["LAUNCHPROF_SANITIZER_BUILD"] != nil
let staticCExecutable: [LinkerSetting] = sanitizing ? [] : [.unsafeFlags(["-static-executable", "-nostartfiles"])]

/// A sample program (its folder under Sources/Samples) for the tests, scripts and
/// demos: an executable target and no product, so that a package depending on
/// launchprof sees none of them. SwiftPM gives a root package's executable
/// target without a product an implicit one named after the target, so the
/// target is named after its binary (`.build/debug/lp-sample-app`), and
/// `-module-name` keeps the module named after its folder: the symbols that
/// profiles, tests and docs show stay `SampleApp.computeLaunchHotspot`, not
/// `lp_sample_app.…` (a sample is never a dependency, so the unsafe flag
/// reaches no other package).
func sample(_ binary: String, module: String, dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: binary,
        dependencies: dependencies,
        path: "Sources/Samples/\(module)",
        swiftSettings: [.unsafeFlags(["-module-name", module])]
    )
}

let package = Package(
    name: "launchprof",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LaunchProf", targets: ["LaunchProf"]),
        .library(name: "LaunchProfDeferred", targets: ["LaunchProfDeferred"]),
        .library(name: "LaunchProfLifecycle", targets: ["LaunchProfLifecycle"]),
        .library(name: "LaunchProfCodable", targets: ["LaunchProfCodable"]),
        // Launch benchmarks as a library: what `launchprof run` does, for
        // Swift code and `swift test` (docs/engine.md).
        .library(name: "LaunchBenchmark", targets: ["LaunchBenchmark"]),
        .executable(name: "launchprof", targets: ["launchprof"]),
        // `swift package launchprof …` in a package that depends on this one
        // (docs/swiftpm-plugin.md).
        .plugin(name: "LaunchprofPlugin", targets: ["LaunchprofCommand"]),
        // The process that starts every measured program (docs/spawner.md).
        .executable(name: "lp-spawn", targets: ["LaunchProfSpawner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The wire formats in one C header (trace layout, record protocol,
        // results schema version), for the C sampler and every Swift side.
        .target(
            name: "LaunchProfFormat",
            path: "Sources/Shared/LaunchProfFormat"
        ),
        // The launch sampler (docs/sampling.md): per-thread timers, the
        // SIGPROF handler, libunwind, its trace sections. One target for both
        // of its starters: LaunchProf's constructor (CLaunchProfSupport) and
        // the preload library (PreloadLibrary builds it from this target's
        // files).
        .target(
            name: "CLaunchProfSampler",
            dependencies: ["LaunchProfFormat"],
            path: "Sources/Shared/CLaunchProfSampler"
        ),
        // C for what Swift must not do itself: the process-entry constructor,
        // thread-local event cursors, raw-memory atomics, async-signal-safe
        // writes, and starting the sampler at process entry.
        .target(
            name: "CLaunchProfSupport",
            dependencies: ["LaunchProfFormat", "CLaunchProfSampler"],
            path: "Sources/Embedded/CLaunchProfSupport"
        ),
        // liblaunchprof-preload.so, the launch sampler for any dynamically
        // linked program (LD_PRELOAD): Sources/Benchmark/CLaunchProfPreload/preload.c
        // and the C files of CLaunchProfSampler and LaunchProfFormat as
        // SwiftPM lists them, built by the C compiler alone so that it links
        // only libc and libunwind (a swiftc-linked product would load the
        // Swift runtime into every program it profiles). It lands in the
        // launchprof target's resources, beside the executable.
        .plugin(
            name: "PreloadLibrary",
            capability: .buildTool()
        ),
        // liblaunchprof-audit.so, the dynamic loader's audit library that
        // times each shared library of a launch (`explain --loader`):
        // Sources/Benchmark/CLaunchProfAudit/audit.c, built by the C compiler alone
        // (libc only), into the launchprof target's resources.
        .plugin(
            name: "AuditLibrary",
            capability: .buildTool()
        ),
        // BuildCommit.swift in the launchprof target: the commit
        // `launchprof --version` names (git, or LAUNCHPROF_COMMIT, or "dev"),
        // generated at build time so that no target needs a flag for it.
        .plugin(
            name: "BuildCommit",
            capability: .buildTool()
        ),
        // `swift package launchprof run|gate|…`: builds the package's
        // executable products in release through SwiftPM, then runs
        // launchprof (its tool, built with lp-spawn only when the plugin
        // runs) in the package's folder, which it writes results into.
        .plugin(
            name: "LaunchprofCommand",
            capability: .command(
                intent: .custom(verb: "launchprof", description: "Measure the launch of the package's executables with launchprof."),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "launchprof writes its results, baselines and profiles into the package's .launchprof folder")
                ]
            ),
            dependencies: ["launchprof", "LaunchProfSpawner"]
        ),
        // Files written whole or not at all, and standard error, without
        // Foundation: the one implementation the embedded libraries and the
        // benchmark library share.
        .target(
            name: "LaunchProfFiles",
            path: "Sources/Shared/LaunchProfFiles"
        ),
        // The embedded library: no Foundation.
        .target(
            name: "LaunchProf",
            dependencies: ["LaunchProfFormat", "LaunchProfFiles", "CLaunchProfSupport", "CLaunchProfSampler"],
            path: "Sources/Embedded/LaunchProf"
        ),
        // Work off the launch path: the deferred initializer and the prewarm
        // registry. Separate from LaunchProf so that programs that only trace
        // do not link (nor relocate at launch) any of it.
        .target(
            name: "LaunchProfDeferred",
            dependencies: ["LaunchProf", "LaunchProfFiles", "CLaunchProfSupport"],
            path: "Sources/Embedded/LaunchProfDeferred"
        ),
        // Lifecycle and StateStore: separate from LaunchProf so that programs
        // that only trace do not link (nor bind at launch) any of it.
        .target(
            name: "CLaunchProfLifecycle",
            dependencies: ["CLaunchProfSupport"],
            path: "Sources/Embedded/CLaunchProfLifecycle"
        ),
        .target(
            name: "LaunchProfLifecycle",
            dependencies: [
                "LaunchProf", "LaunchProfDeferred", "LaunchProfFiles", "LaunchProfFormat", "CLaunchProfSupport", "CLaunchProfLifecycle",
            ],
            path: "Sources/Embedded/LaunchProfLifecycle"
        ),
        // Codable over StateStore's bytes: a separate module, because it needs Foundation.
        .target(
            name: "LaunchProfCodable",
            dependencies: ["LaunchProfLifecycle"],
            path: "Sources/Embedded/LaunchProfCodable"
        ),
        // The spawner protocol (launchprof's side) and the sockets whose
        // messages carry their sender's pid.
        .target(
            name: "CLaunchProfSpawn",
            path: "Sources/Benchmark/CLaunchProfSpawn"
        ),
        // `--ready window` and `--ready frame`: top-level windows through
        // libxcb, DAMAGE and X-Resource, opened with dlopen when a run asks
        // (docs/window.md), so launchprof links no X library.
        .target(
            name: "CLaunchWindow",
            path: "Sources/Benchmark/CLaunchWindow"
        ),
        // The kernel's samples of a launch (LP_SPAWN_FLAG_SAMPLE's sink),
        // unwound after the run with libunwind's remote API (opened with
        // dlopen, so nothing links libunwind) into the samples and modules
        // sections of the in-process sampler's own encoder.
        .target(
            name: "CLaunchProfPerf",
            dependencies: ["LaunchProfFormat", "CLaunchProfSampler", "CLaunchProfSpawn"],
            path: "Sources/Benchmark/CLaunchProfPerf"
        ),
        // lp-spawn: starts, watches and reaps every measured process. A static
        // executable of the C library alone (no Swift runtime: -nostartfiles
        // drops swiftrt.o, and nothing then pulls a Swift archive in), so its
        // memory peak, which every process it execs inherits in ru_maxrss, is
        // tiny, and it maps no file a cold run evicts. Not a dependency of any
        // library product.
        .executableTarget(
            name: "LaunchProfSpawner",
            dependencies: ["CLaunchProfSpawn"],
            path: "Sources/Benchmark/LaunchProfSpawner",
            linkerSettings: staticCExecutable
        ),
        // C the engine needs: the Swift runtime's demangler, called directly.
        .target(
            name: "CLaunchBenchmarkSupport",
            path: "Sources/Benchmark/CLaunchBenchmarkSupport"
        ),
        // The launch benchmark library, in modules whose dependencies point
        // one way (docs/architecture.md; Scripts/checks/check-architecture.py).
        // Support: units, atomic files, markup escaping, ELF, system calls
        // and owned descriptors, terminal text. Foundation and Glibc only.
        .target(
            name: "LaunchSupport",
            dependencies: ["LaunchProfFiles"],
            path: "Sources/Benchmark/LaunchSupport"
        ),
        // Analysis: trace files and profiles read, folded, compared and drawn.
        .target(
            name: "LaunchAnalysis",
            dependencies: ["LaunchSupport", "LaunchProfFormat", "CLaunchBenchmarkSupport"],
            path: "Sources/Benchmark/LaunchAnalysis"
        ),
        // The engine: the results model, launching and observing runs, page
        // cache eviction, statistics, budgets, regression and attribution,
        // recording and profiling.
        .target(
            name: "LaunchEngine",
            dependencies: [
                "LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchProfFormat", "CLaunchProfSpawn", "CLaunchProfPerf",
                "CLaunchWindow",
            ],
            path: "Sources/Benchmark/LaunchEngine"
        ),
        // Rendering of finished documents: terminal, Markdown, JUnit, GitHub
        // annotations, HTML, trace exports, Prometheus exposition.
        .target(
            name: "LaunchReports",
            dependencies: ["LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchEngine"],
            path: "Sources/Benchmark/LaunchReports"
        ),
        // The session and configuration over all of them, and the product
        // users import (it re-exports the API modules: analysis, engine, reports).
        .target(
            name: "LaunchBenchmark",
            dependencies: [
                "LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchEngine", "LaunchReports",
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Sources/Benchmark/LaunchBenchmark"
        ),
        // The CLI links the Swift runtime and Foundation statically: a cold run
        // evicts libswiftCore.so and friends from the page cache, and the kernel
        // keeps every page a live process maps, so a CLI that mapped them would
        // make every Swift launch it measures warm. The explicit group puts
        // Foundation's archives in an order the single-pass linker resolves.
        .executableTarget(
            name: "launchprof",
            dependencies: [
                "LaunchBenchmark", "LaunchSupport", "LaunchProfFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Benchmark/launchprof",
            linkerSettings: sanitizing ? [] : [.unsafeFlags(staticSwiftRuntime)],
            plugins: ["PreloadLibrary", "AuditLibrary", "BuildCommit"]
        ),
        sample("lp-sample-app", module: "SampleApp", dependencies: ["LaunchProf"]),
        sample("lp-sample-server", module: "SampleServer", dependencies: ["LaunchProf"]),
        // A server with an async main: its launch runs on the cooperative pool.
        sample("lp-sample-async-server", module: "SampleAsyncServer", dependencies: ["LaunchProf"]),
        // The C reference: a C hello-world linked statically against the C
        // library alone (-nostartfiles drops swiftrt.o, so no Swift archive
        // is pulled in): the cost of exec itself, with no Swift runtime,
        // libstdc++ or dynamic loader in it. `ldd` says so; a test checks it.
        .executableTarget(
            name: "lp-hello-c",
            path: "Sources/Samples/HelloC",
            linkerSettings: staticCExecutable
        ),
        sample("lp-sample-deferred", module: "SampleDeferred", dependencies: ["LaunchProf", "LaunchProfDeferred"]),
        // Hello-worlds with and without LaunchProf: Scripts/compare/compare-launch-overhead.sh.
        sample("lp-hello-traced", module: "HelloTraced", dependencies: ["LaunchProf"]),
        sample("lp-hello-plain", module: "HelloPlain"),
        sample("lp-sample-lifecycle", module: "SampleLifecycle", dependencies: ["LaunchProf", "LaunchProfLifecycle"]),
        sample("lp-sample-background", module: "SampleBackground", dependencies: ["LaunchProf", "LaunchProfLifecycle"]),
        // A launch that waits on a lock another thread holds: what
        // `launchprof profile --clock wall` shows off CPU (docs/sampling.md).
        sample("lp-sample-lock-wait", module: "SampleLockWait", dependencies: ["LaunchProf"]),
        .testTarget(
            name: "LaunchProfTests",
            dependencies: [
                "LaunchProf", "CLaunchProfSupport", "LaunchProfDeferred", "LaunchProfLifecycle", "LaunchProfCodable", "LaunchBenchmark",
                "LaunchProfTestSupport",
            ]
        ),
        // Helpers both test targets use (markup parsing, files they execute).
        .target(
            name: "LaunchProfTestSupport",
            dependencies: ["LaunchBenchmark", "LaunchSupport"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "LaunchBenchmarkTests",
            dependencies: [
                "LaunchSupport", "LaunchAnalysis", "LaunchEngine", "LaunchReports", "LaunchBenchmark", "LaunchProf",
                "LaunchProfTestSupport", "CLaunchProfPerf", "CLaunchProfSampler",
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["LaunchSupport", "LaunchAnalysis", "LaunchEngine", "LaunchReports", "LaunchBenchmark", "LaunchProfTestSupport"]
        ),
    ]
)

// Documentation (Scripts/checks/build-docs.sh): swift-docc-plugin is a dependency
// only when the docs are built, so that no user of the libraries resolves it.
if Context.environment["LAUNCHPROF_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
