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

private:
    void work(uint32_t worker);
    void drain(uint32_t worker);

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    uint64_t generation_ = 0;  // a new run
    bool stopping_ = false;
    Task task_ = nullptr;
    void* context_ = nullptr;
    uint32_t count_ = 0;
    std::atomic<uint32_t> next_{0};
    uint32_t busy_ = 0;  // pool threads still in the current run
};

}  // namespace pivot
