// sampling-cost RUNS WARMUP RATES PRELOAD PROGRAM
//
// Launches PROGRAM (a LaunchProf program; ready: tracer) RUNS times per
// variant after WARMUP rounds, the variants interleaved run by run so that
// the machine's drift falls on all alike:
//   plain         no sampling;
//   kernel-R      the kernel samples at R Hz (what `launchprof profile`
//                 does by default): the spawner's per-CPU events, copied
//                 stacks, nothing in the program (unwinding is after the run
//                 and not timed);
//   in-process-R  the program samples itself at R Hz: LD_PRELOAD of the
//                 preload library and LAUNCHPROF_SAMPLE_HZ (`--sampler
//                 in-process`).
// Prints for each the median CPU of the launched tree (user + system) and
// the median wall time to ready, and their ratios to plain.
import Foundation
import LaunchBenchmark

let arguments = CommandLine.arguments
guard arguments.count == 6, let runs = Int(arguments[1]), let warmup = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: sampling-cost RUNS WARMUP \"250 1000\" PRELOAD PROGRAM\n".utf8))
    exit(2)
}
let rates = arguments[3].split(separator: " ").compactMap { UInt32($0) }
let (preload, program) = (arguments[4], arguments[5])
let sink = FileManager.default.temporaryDirectory.appendingPathComponent("sampling-cost-\(getpid()).samples").path
defer { unlink(sink) }

struct Variant {
    var name: String
    var environment: [String: String] = [:]
    var rate: UInt32?
}
var variants = [Variant(name: "plain")]
for rate in rates {
    variants.append(Variant(name: "kernel-\(rate)", rate: rate))
    variants.append(Variant(name: "in-process-\(rate)", environment: ["LAUNCHPROF_SAMPLE_HZ": "\(rate)", "LD_PRELOAD": preload]))
}

let spawner = Spawner()
var cpu: [String: [Double]] = [:]
var wall: [String: [Double]] = [:]
for round in 0..<(warmup + runs) {
    for variant in variants {
        let target = LaunchTarget(name: variant.name, arguments: [program], environment: variant.environment, ready: .tracer)
        var request = RunRequest(target: target)
        // As `launchprof profile --ready tracer` samples it: the mappings
        // are read at ready.
        request.sampling = variant.rate.map { rate in
            var sampling = KernelSampling(rate: rate, sink: sink)
            sampling.mapsAtReady = true
            return sampling
        }
        let run: ObservedRun
        do {
            run = try spawner.run(request)
        } catch {
            FileHandle.standardError.write(Data("sampling-cost: \(variant.name): \(error)\n".utf8))
            exit(1)
        }
        guard round >= warmup, let ready = run.wallToReady else { continue }
        let usage = run.tree.processes > 0 ? run.tree.usage : run.usage
        cpu[variant.name, default: []].append(Double(usage.userCPU + usage.systemCPU) / 1e6)
        wall[variant.name, default: []].append(Double(ready) / 1e6)
    }
}

func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
}
let base = (cpu: median(cpu["plain"] ?? []), wall: median(wall["plain"] ?? []))
print("variant           CPU (user+sys): median, vs plain, [p25 p75]            wall to ready: median, vs plain, [p25 p75]")
for variant in variants {
    let c = median(cpu[variant.name] ?? []), w = median(wall[variant.name] ?? [])
    print(
        variant.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            + String(
                format: "  %7.3f ms %+6.1f%% (%+5.0f µs) [%.2f %.2f]   %7.3f ms %+6.1f%% [%.2f %.2f]   (%d runs)", c,
                (c / base.cpu - 1) * 100, (c - base.cpu) * 1000, quantile(cpu[variant.name] ?? [], 0.25),
                quantile(cpu[variant.name] ?? [], 0.75), w, (w / base.wall - 1) * 100, quantile(wall[variant.name] ?? [], 0.25),
                quantile(wall[variant.name] ?? [], 0.75), cpu[variant.name]?.count ?? 0))
}
