import Foundation
import LaunchProfTestSupport
import Testing

/// The sampler's encoder against handlers still adding samples, threads
/// still being armed, and a concurrent stop: a C program built from the
/// sampler's own sources (as the preload library is) encodes the sections
/// from three threads, hundreds of times, while sampling at 10 kHz runs on
/// busy threads that come and go, then stops mid-way. Every encoding must be
/// whole: its two section headers' lengths add up to its size, and the
/// sample records fill the samples section exactly.
@Suite("Sampler: encoding while sampling")
struct SamplerEncodeRaceTests {
    static let program = """
        #define _GNU_SOURCE
        #include "sampler_internal.h"
        #include <string.h>
        #include <pthread.h>
        #include <stdio.h>
        #include <stdlib.h>

        static volatile int running = 1;
        static volatile int bad = 0;
        static volatile long encodings = 0;

        static void *burn(void *unused) {
            (void)unused;
            volatile double x = 0;
            for (long i = 0; i < 2000000; i++) x += i * 0.5;
            return NULL;
        }
        static void *spawner(void *unused) {
            (void)unused;
            while (running) {
                pthread_t t;
                if (pthread_create(&t, NULL, burn, NULL) == 0) pthread_join(t, NULL);
            }
            return NULL;
        }
        static uint64_t u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
        static uint32_t u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
        static int check(const uint8_t *b, size_t size) {
            if (size < 32) return 0;
            if (u32(b) != LP_TRACE_SECTION_SAMPLES) return 0;
            uint64_t samples = u64(b + 8);
            if (16 + samples + 16 > size) return 0;
            const uint8_t *m = b + 16 + samples;
            if (u32(m) != LP_TRACE_SECTION_MODULES || 16 + samples + 16 + u64(m + 8) != size) return 0;
            // Walk the records: they must fill the section exactly.
            const uint8_t *p = b + 16;
            // hz, depth, timer mode, flags (4 each), start, stop, count,
            // lost, failed (8 each), threads, padding (4 each), then the
            // threads (tid + 16-byte name) and the records.
            uint64_t count = u64(p + 32);
            uint32_t threads = u32(p + 56);
            size_t offset = 64 + (size_t)threads * 20;
            for (uint64_t i = 0; i < count; i++) {
                if (offset + 24 > samples) return 0;
                uint16_t depth; memcpy(&depth, p + offset + 12, 2);
                offset += 24 + (size_t)depth * 8;
            }
            return offset == samples;
        }
        static void *encoder(void *unused) {
            (void)unused;
            while (running) {
                size_t size = 0;
                uint8_t *bytes = lp_sampler_encode_sections(&size);
                if (bytes == NULL || !check(bytes, size)) bad = 1;
                free(bytes);
                __atomic_fetch_add(&encodings, 1, __ATOMIC_RELAXED);
            }
            return NULL;
        }
        int main(void) {
            if (lp_sampler_start(10000, 64) != 0) { fprintf(stderr, "start: %s\\n", lp_sampler_error()); return 2; }
            pthread_t spawners[2], encoders[3];
            for (int i = 0; i < 2; i++) pthread_create(&spawners[i], NULL, spawner, NULL);
            for (int i = 0; i < 3; i++) pthread_create(&encoders[i], NULL, encoder, NULL);
            for (int i = 0; i < 20; i++) burn(NULL);  // the main thread is sampled meanwhile
            lp_sampler_stop();  // while the encoders run
            burn(NULL);
            running = 0;
            for (int i = 0; i < 2; i++) pthread_join(spawners[i], NULL);
            for (int i = 0; i < 3; i++) pthread_join(encoders[i], NULL);
            size_t size = 0;
            uint8_t *final_bytes = lp_sampler_encode_sections(&size);
            int ok = final_bytes != NULL && check(final_bytes, size) && !bad && lp_sampler_stats().samples > 20;
            printf("encodings %ld, samples %llu, %s\\n", encodings, (unsigned long long)lp_sampler_stats().samples,
                   ok ? "all whole" : "TORN");
            return ok ? 0 : 1;
        }
        """

    @Test("three threads encode while 10 kHz sampling runs and stops: every encoding is whole")
    func encodingsAreWhole() throws {
        let binary = try SamplerPrograms.compile(Self.program, name: "encode-race", linkingSampler: true)
        defer { unlink(binary) }
        let run = try CommandRun.run(binary, [], timeout: 120)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("all whole"))
    }
}
