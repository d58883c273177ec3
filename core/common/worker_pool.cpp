#include "common/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace pivot {

namespace {

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() or for WorkerPool::kSpinSeconds; returns done().
template <class Done>
bool spin_until(Done done) {
    using Clock = std::chrono::steady_clock;
    const std::chrono::duration<double> spin(WorkerPool::kSpinSeconds);
    const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(spin);
    for (;;) {
        for (int k = 0; k < 64; ++k) {
            if (done()) return true;
            cpu_relax();
        }
        if (Clock::now() >= end) return done();
    }
}

}  // namespace

WorkerPool::WorkerPool(uint32_t threads) {
    for (uint32_t w = 1; w < std::max(threads, 1u); ++w) threads_.emplace_back([this, w] { work(w); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
}

uint32_t WorkerPool::threads_for(uint32_t requested) {
    if (requested > 0) return requested;
    // Asked once: glibc answers hardware_concurrency() by reading
    // /sys/devices/system/cpu/online (open, read, close, a yield), ~10 us,
    // which World::step paid every step (a third of a 10-link chain's step).
    static const uint32_t hardware = std::thread::hardware_concurrency();
    return std::clamp(hardware, 1u, 4u);
}

void WorkerPool::drain(uint32_t worker, uint64_t generation, Task task, void* context, uint32_t count) {
    const uint64_t tag = (generation & 0xffffffffu) << 32;
    for (;;) {
        uint64_t next = next_.load(std::memory_order_relaxed);
        do {
            if ((next & ~uint64_t{0xffffffffu}) != tag || (next & 0xffffffffu) >= count) return;
        } while (!next_.compare_exchange_weak(next, next + 1, std::memory_order_acq_rel, std::memory_order_relaxed));
        task(context, worker, static_cast<uint32_t>(next & 0xffffffffu));
        if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) {
            // The calling thread may be asleep: notify in the mutex's order.
            { std::lock_guard<std::mutex> lock(mutex_); }
            done_.notify_one();
        }
    }
}

void WorkerPool::run(uint32_t count, Task task, void* context) {
    if (count == 0) return;
    if (threads_.empty() || count == 1) {
        for (uint32_t index = 0; index < count; ++index) task(context, 0, index);
        return;
    }
    uint64_t generation = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = task;
        context_ = context;
        count_ = count;
        generation = generation_.load(std::memory_order_relaxed) + 1;
        finished_.store(0, std::memory_order_relaxed);
        next_.store((generation & 0xffffffffu) << 32, std::memory_order_relaxed);
        generation_.store(generation, std::memory_order_release);  // the fields above come with it
    }
    wake_.notify_all();
    drain(0, generation, task, context, count);
    const auto done = [&] { return finished_.load(std::memory_order_acquire) == count; };
    if (spin_until(done)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, done);
}

void WorkerPool::work(uint32_t worker) {
    uint64_t seen = 0;
    for (;;) {
        // A run that comes within the spin is taken at once; else sleep.
        const bool early = spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
        Task task = nullptr;
        void* context = nullptr;
        uint32_t count = 0;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            if (!early) wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
            if (stopping_) return;
            seen = generation_.load();
            task = task_;
            context = context_;
            count = count_;
        }
        drain(worker, seen, task, context, count);
    }
}

}  // namespace pivot
