import Foundation
import LaunchBenchmark
import Testing

@Suite("Pairing and ABBA order")
struct GatePairingTests {
    @Test("the order is A B B A, repeated")
    func order() {
        let sides = (0..<8).map { ABBAOrder.side(at: $0) }
        #expect(sides == [.base, .head, .head, .base, .base, .head, .head, .base])
    }

    @Test("on one CPU each block gives a base-first and a head-first pair")
    func oneCPU() {
        var pairing = GatePairing()
        for (position, value) in [100.0, 110, 110, 100].enumerated() {
            pairing.add(GateObservation(position: position, side: ABBAOrder.side(at: position), value: value, cpu: 0))
        }
        #expect(pairing.logRatios.count == 2)
        for ratio in pairing.logRatios { #expect(abs(ratio - log(1.1)) < 1e-12) }
        #expect(pairing.unpaired == 0)
        // The two base runs of the block, against each other.
        #expect(pairing.baseLogRatios == [0])
    }

    @Test("runs pair only with a run of the other side on the same CPU")
    func crossCPU() {
        // A0 on cpu 0, B1 on cpu 1, B2 on cpu 0, A3 on cpu 1: the pairs are
        // (A0, B2) and (B1, A3), never a cpu-0 run with a cpu-1 run.
        let cpus = [0, 1, 0, 1]
        let values = [100.0, 200, 110, 180]
        var pairing = GatePairing()
        for position in 0..<4 {
            pairing.add(
                GateObservation(position: position, side: ABBAOrder.side(at: position), value: values[position], cpu: cpus[position]))
        }
        #expect(pairing.cpus == [0, 1])
        #expect(abs(pairing.logRatios[0] - log(110.0 / 100)) < 1e-12)
        #expect(abs(pairing.logRatios[1] - log(200.0 / 180)) < 1e-12)
    }

    @Test("with sameCPU false each block's neighbours pair whatever their CPU, none is left out, and the pairs across CPUs are counted")
    func anyCPU() {
        // The same runs as `crossCPU`: now (A0, B1) and (B2, A3).
        let cpus = [0, 1, 0, 1, 1, 1, 0, 0]
        let values = [100.0, 200, 110, 180, 100, 101, 102, 103]
        var pairing = GatePairing(sameCPU: false)
        for position in cpus.indices {
            pairing.add(
                GateObservation(position: position, side: ABBAOrder.side(at: position), value: values[position], cpu: cpus[position]))
        }
        #expect(pairing.logRatios.count == 4)
        #expect(abs(pairing.logRatios[0] - log(200.0 / 100)) < 1e-12)
        #expect(abs(pairing.logRatios[1] - log(110.0 / 180)) < 1e-12)
        #expect(abs(pairing.logRatios[2] - log(101.0 / 100)) < 1e-12)
        #expect(abs(pairing.logRatios[3] - log(102.0 / 103)) < 1e-12)
        #expect(pairing.unpaired == 0)
        #expect(pairing.acrossCPUs == 2)
        #expect(pairing.cpus == [1, 0])
        // The base runs pair across CPUs too: (A0, A3), (A4, A7).
        #expect(pairing.baseLogRatios.count == 2)
    }

    @Test("a run with no partner near it on its CPU is left unpaired")
    func unpaired() {
        var pairing = GatePairing(window: 3)
        pairing.add(GateObservation(position: 0, side: .base, value: 100, cpu: 0))
        for position in 1...4 {
            pairing.add(GateObservation(position: position, side: .head, value: 100, cpu: 1))
        }
        // The base run at 0 expired when position 4 arrived; the heads have no base on cpu 1.
        #expect(pairing.logRatios.isEmpty)
        #expect(pairing.unpaired == 1)
    }

    @Test("two CPUs of different speed: pairing within CPUs removes the bimodality")
    func bimodal() {
        // cpu 1 is 25% slower; runs land on either at random; head = base.
        var generator = SeededGenerator(seed: 5)
        var pairing = GatePairing()
        for position in 0..<400 {
            let cpu = Int.random(in: 0...1, using: &generator)
            let value = (cpu == 0 ? 3.15 : 3.9) * (1 + Double.random(in: -0.01...0.01, using: &generator))
            pairing.add(GateObservation(position: position, side: ABBAOrder.side(at: position), value: value, cpu: cpu))
        }
        let spread = pairing.logRatios.map(abs).max() ?? 1
        #expect(spread < 0.021)
        #expect(pairing.logRatios.count > 100)
    }
}
