#pragma once
// A small pool of worker threads for the step's independent work (the
// islands' solves, core/step/solve_islands.cpp): run(count, task) calls
// task(worker, index) for every index < count, spread over the calling
// thread (worker 0) and the pool's threads (workers 1 .. size()-1), and
// returns when all are done. Indices are handed out one at a time (the
// first free worker takes the next), so which worker runs an index varies:
// callers make each index's result depend on the index only (one solver
// instance per worker, results written per index and combined afterwards
// in index order), which keeps a world's steps bitwise the same whatever
// the thread count. No allocation per run.
//
// Waiting: a step makes several runs a few hundred microseconds apart, and
// waking a thread asleep on a condition variable costs tens of
// microseconds, more in a virtual machine, whose idle vCPU halts (measured
// in docs/benchmarks.md, "A pool that does not wait for its threads"). So
//  - a run ends when its tasks are done, not when every pool thread has
//    looked at it: a thread that wakes late finds the tasks taken and
//    sleeps again, and the calling thread, which takes tasks too, never
//    waits for a thread's wake-up;
//  - the next task's index carries the run's generation, so a thread late
//    for one run can never take a task of the next;
//  - pool threads spin for kSpinSeconds after a run before sleeping, and
//    the calling thread spins as long for the last task before sleeping.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace pivot {

class WorkerPool {
public:
    using Task = void (*)(void* context, uint32_t worker, uint32_t index);

    // threads >= 1 in all, the calling thread included.
    explicit WorkerPool(uint32_t threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    uint32_t size() const { return static_cast<uint32_t>(threads_.size()) + 1; }
    // task(context, worker, index) for index < count; returns when all ran.
    // Not reentrant (one run at a time, from one thread).
    void run(uint32_t count, Task task, void* context);

    // The threads a pool of `requested` has: `requested`, or for 0 the
    // machine's hardware threads, at most 4.
    static uint32_t threads_for(uint32_t requested);
    static constexpr double kSpinSeconds = 50e-6;

    // body(worker, begin, end) over [0, count) in chunks of `chunk` items,
    // on `pool` when given (else the calling thread, worker 0). For loops
    // whose items write only their own slots: the result is the same
    // whatever the pool.
    template <class Body>
    static void for_chunks(WorkerPool* pool, uint32_t count, uint32_t chunk, Body&& body) {
        struct Context {
            Body* body;
            uint32_t count, chunk;
        } context{&body, count, chunk};
        const uint32_t chunks = (count + chunk - 1) / chunk;
        const Task task = [](void* c, uint32_t worker, uint32_t index) {
            const auto& ctx = *static_cast<const Context*>(c);
            const uint32_t begin = index * ctx.chunk;
            (*ctx.body)(worker, begin, begin + ctx.chunk < ctx.count ? begin + ctx.chunk : ctx.count);
        };
        if (pool != nullptr && chunks > 1) {
            pool->run(chunks, task, &context);
        } else {
            for (uint32_t index = 0; index < chunks; ++index) task(&context, 0, index);
        }
    }

private:
    void work(uint32_t worker);
    // Tasks of run `generation` while there are any.
    void drain(uint32_t worker, uint64_t generation, Task task, void* context, uint32_t count);

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    // The run: written under mutex_, the generation last (atomic, so that a
    // spinning thread may watch it).
    std::atomic<uint64_t> generation_{0};
    bool stopping_ = false;
    Task task_ = nullptr;
    void* context_ = nullptr;
    uint32_t count_ = 0;
    std::atomic<uint64_t> next_{0};      // (generation mod 2^32) << 32 | the next task's index
    std::atomic<uint32_t> finished_{0};  // tasks of the run done
};

}  // namespace pivot
