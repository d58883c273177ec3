#include "common/worker_pool.hpp"

#include <algorithm>

namespace pivot {

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

void WorkerPool::drain(uint32_t worker) {
    for (uint32_t index = next_.fetch_add(1); index < count_; index = next_.fetch_add(1)) task_(context_, worker, index);
}

void WorkerPool::run(uint32_t count, Task task, void* context) {
    if (count == 0) return;
    if (threads_.empty() || count == 1) {
        for (uint32_t index = 0; index < count; ++index) task(context, 0, index);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = task;
        context_ = context;
        count_ = count;
        next_.store(0);
        busy_ = static_cast<uint32_t>(threads_.size());
        ++generation_;
    }
    wake_.notify_all();
    drain(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
}

void WorkerPool::work(uint32_t worker) {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        drain(worker);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            --busy_;
        }
        done_.notify_one();
    }
}

}  // namespace pivot
