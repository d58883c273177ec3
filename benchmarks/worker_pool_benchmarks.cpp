// What a second thread costs on this machine: the numbers that decide
// whether a step's stage pays on the pool (docs/benchmarks.md, "Two cores:
// what moving data between them costs").
//  - round_trip: one cache line passed between two threads and back
//    (an atomic ping-pong), twice the time a core waits for a line the
//    other core wrote last;
//  - pool_run/<threads>: one WorkerPool::run of 16 empty tasks, back to
//    back (the pool's threads spinning): its fixed cost per run;
//  - hand_over/<threads>/<work>: the contact stage's pattern in
//    miniature. 4 MiB of per-item slots (as the contacts' inputs and rows)
//    written in chunks of 64 KiB on the pool, each item after `work` rounds
//    of arithmetic on its slot (0: a plain write; 8: 128 dependent
//    multiply-adds per item, about the time the contact stage spends on a
//    contact's friction-model input), then read once on
//    the calling thread (as the friction models' build() and the serial
//    stages read them). With one thread every slot is in the writer's
//    cache; with two, about half were written on the other core, and run
//    after run a chunk's slots are written by whichever thread took it:
//    this measures what the hand-over costs against the work the second
//    thread takes off the first.
// Run: build/bin/worker_pool_benchmarks
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "common/worker_pool.hpp"

namespace pivot {
namespace {

void round_trip(benchmark::State& state) {
    std::atomic<uint64_t> line{0};
    std::atomic<bool> stop{false};
    // The other thread answers every odd value with the next even one.
    std::thread other([&] {
        uint64_t seen = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            const uint64_t value = line.load(std::memory_order_acquire);
            if (value != seen && (value & 1) != 0) {
                seen = value + 1;
                line.store(seen, std::memory_order_release);
            }
        }
    });
    uint64_t value = 0;
    for (auto _ : state) {
        line.store(++value, std::memory_order_release);
        while (line.load(std::memory_order_acquire) != value + 1) {
        }
        ++value;
    }
    stop.store(true, std::memory_order_relaxed);
    other.join();
}

void empty_task(void*, uint32_t, uint32_t) {}

void pool_run(benchmark::State& state) {
    WorkerPool pool(static_cast<uint32_t>(state.range(0)));
    for (auto _ : state) pool.run(16, empty_task, nullptr);
}

void hand_over(benchmark::State& state) {
    constexpr uint32_t kSlot = 256;             // bytes per item: about a contact's input
    constexpr uint32_t kItems = (4u << 20) / kSlot;
    constexpr uint32_t kChunk = (64u << 10) / kSlot;
    WorkerPool pool(static_cast<uint32_t>(state.range(0)));
    const int64_t work = state.range(1);
    std::vector<uint64_t> slots(static_cast<size_t>(kItems) * kSlot / sizeof(uint64_t));
    constexpr uint32_t kWords = kSlot / sizeof(uint64_t);
    uint64_t round = 0;
    for (auto _ : state) {
        ++round;
        WorkerPool::for_chunks(&pool, kItems, kChunk, [&](uint32_t, uint32_t begin, uint32_t end) {
            for (uint32_t item = begin; item < end; ++item) {
                uint64_t* slot = slots.data() + static_cast<size_t>(item) * kWords;
                uint64_t x = round * item;
                for (int64_t k = 0; k < work; ++k) {
                    for (uint32_t w = 0; w < kWords / 2; ++w) x = x * 6364136223846793005u + w;
                }
                for (uint32_t w = 0; w < kWords; ++w) slot[w] = x + w;
            }
        });
        uint64_t sum = 0;
        for (const uint64_t word : slots) sum += word;
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(slots.size() * 8));
}

BENCHMARK(round_trip);
BENCHMARK(pool_run)->Arg(1)->Arg(2);
BENCHMARK(hand_over)->ArgsProduct({{1, 2}, {0, 8}})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace pivot

BENCHMARK_MAIN();
