// WorkerPool: every task of every run runs exactly once, on the run's own
// task and context, whatever the thread count and however the runs are
// spaced: back to back (pool threads still spinning, or late for the last
// run: they must not take a task of the next one, whose index counter
// carries its generation) and farther apart than the spin (threads asleep).
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/worker_pool.hpp"

namespace pivot {
namespace {

struct PoolRun {
    uint32_t id = 0;
    std::vector<std::atomic<uint32_t>>* calls = nullptr;  // per index: the run ids that ran it, summed
    std::atomic<uint32_t>* wrong_worker = nullptr;
    uint32_t workers = 0;
};

void count_call(void* context, uint32_t worker, uint32_t index) {
    const PoolRun& run = *static_cast<const PoolRun*>(context);
    (*run.calls)[index].fetch_add(run.id + 1, std::memory_order_relaxed);
    if (worker >= run.workers) run.wrong_worker->fetch_add(1, std::memory_order_relaxed);
}

TEST(WorkerPool, EveryTaskOfEveryRunOnce) {
    for (const uint32_t threads : {1u, 2u, 4u}) {
        WorkerPool pool(threads);
        ASSERT_EQ(pool.size(), threads);
        std::atomic<uint32_t> wrong_worker{0};
        for (uint32_t r = 0; r < 3000; ++r) {
            const uint32_t count = 1 + (r * 7919u) % 67;  // 1..67 tasks, varied
            std::vector<std::atomic<uint32_t>> calls(count);
            PoolRun run{r, &calls, &wrong_worker, pool.size()};
            pool.run(count, count_call, &run);
            for (uint32_t i = 0; i < count; ++i) {
                // Exactly once, by this run (a stale thread running a task of
                // this run with the last run's context would add r, not r + 1).
                ASSERT_EQ(calls[i].load(), r + 1) << "threads " << threads << " run " << r << " index " << i;
            }
            // Now and then a pause longer than the spin: the threads sleep,
            // and the next run wakes them.
            if (r % 500 == 499) {
                std::this_thread::sleep_for(std::chrono::duration<double>(4 * WorkerPool::kSpinSeconds));
            }
        }
        EXPECT_EQ(wrong_worker.load(), 0u);
    }
}

TEST(WorkerPool, ChunksCoverTheRangeOnce) {
    WorkerPool pool(2);
    for (const uint32_t count : {0u, 1u, 255u, 256u, 257u, 5000u}) {
        std::vector<std::atomic<uint32_t>> seen(count);
        WorkerPool::for_chunks(&pool, count, 256, [&](uint32_t, uint32_t begin, uint32_t end) {
            for (uint32_t i = begin; i < end; ++i) seen[i].fetch_add(1);
        });
        for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(seen[i].load(), 1u) << "count " << count << " item " << i;
    }
}

}  // namespace
}  // namespace pivot
