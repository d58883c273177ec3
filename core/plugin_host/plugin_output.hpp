#pragma once
// Storage a plugin writes into, with a guard zone after it. A plugin runs in
// the engine's process, so nothing stops it from writing past the outputs it
// was given (more rows than it declared, one item too many); such a write
// used to corrupt the heap ("corrupted double-linked list"). Every array the
// host hands a plugin as an output is a PluginOutput (or a GuardedArray),
// whose allocation has kOutputGuardBytes more than its capacity; the checked
// calls (checked_calls.hpp) fill the kOutputGuardBytes after the extent the
// plugin may write with a pattern before the call, check it after, and put
// back what was there (another group's coordinates, say). A guard found
// overwritten fails the call with the plugin, the function and the output
// named. A write further than the guard reaches is beyond what any host can
// catch in-process (docs/embedding.md "Misbehaving plugins").
#include <array>
#include <cstddef>
#include <cstring>
#include <new>
#include <vector>

namespace pivot {

// 512 bytes: 9 rows (pivot_row is 56 bytes), 64 doubles: one item too many
// of most outputs. Arming, checking and restoring it costs ~40 ns per output
// and call (a 10-link chain's step makes ~16 such calls).
constexpr size_t kOutputGuardBytes = 512;

// Allocates kOutputGuardBytes more than asked, so the bytes after any extent
// within the capacity can hold a guard.
template <class T>
struct GuardedAllocator {
    using value_type = T;
    GuardedAllocator() = default;
    template <class U>
    GuardedAllocator(const GuardedAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T) + kOutputGuardBytes, std::align_val_t{alignof(T)}));
    }
    void deallocate(T* p, size_t) noexcept { ::operator delete(p, std::align_val_t{alignof(T)}); }
    template <class U>
    bool operator==(const GuardedAllocator<U>&) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const GuardedAllocator<U>&) const noexcept {
        return false;
    }
};

template <class T>
using PluginOutput = std::vector<T, GuardedAllocator<T>>;

// A fixed number of outputs on the stack (a group's three energies), guard
// included.
template <class T, size_t N>
struct GuardedArray {
    std::array<T, N> values{};
    unsigned char guard[kOutputGuardBytes];
};

// Where a plugin may write, with kOutputGuardBytes addressable after the
// extent the call gives it: made from a PluginOutput (at an offset into it)
// or a GuardedArray, so a call site cannot pass unguarded storage by
// mistake. unguarded() is the one way around it, for a caller that calls one
// plugin function directly on storage sized to the extent and wants no guard
// (the plugin unit tests; the engine never uses it).
template <class T>
class Guarded {
public:
    T* data() const { return data_; }
    bool has_guard() const { return has_guard_; }

    template <class U>
    friend Guarded<U> guarded(PluginOutput<U>& v, size_t offset);
    template <class U, size_t N>
    friend Guarded<U> guarded(GuardedArray<U, N>& a);
    template <class U>
    friend Guarded<U> unguarded(U* data);

private:
    Guarded(T* data, bool has_guard) : data_(data), has_guard_(has_guard) {}
    T* data_;
    bool has_guard_;
};

template <class T>
Guarded<T> guarded(PluginOutput<T>& v, size_t offset = 0) {
    return Guarded<T>(v.data() + offset, true);
}
template <class T, size_t N>
Guarded<T> guarded(GuardedArray<T, N>& a) {
    return Guarded<T>(a.values.data(), true);
}
template <class T>
Guarded<T> unguarded(T* data) {
    return Guarded<T>(data, false);
}

// During a call: the guard after output `name`'s extent [data, data +
// count). Saves the bytes there, fills them with a pattern; first_written()
// says whether the plugin left them alone; the destructor puts the saved
// bytes back. The name and count are for the caller's message.
class OutputGuard {
public:
    template <class T>
    OutputGuard(const char* name, Guarded<T> out, size_t count)
        : name_(name),
          count_(count),
          at_(out.has_guard() && out.data() != nullptr ? reinterpret_cast<unsigned char*>(out.data() + count)
                                                       : nullptr) {
        if (at_ == nullptr) return;
        std::memcpy(saved_, at_, kOutputGuardBytes);
        std::memset(at_, kPattern, kOutputGuardBytes);
    }
    OutputGuard(const OutputGuard&) = delete;
    OutputGuard& operator=(const OutputGuard&) = delete;
    ~OutputGuard() {
        if (at_ != nullptr) std::memcpy(at_, saved_, kOutputGuardBytes);
    }

    const char* name() const { return name_; }
    size_t count() const { return count_; }

    // The first byte the plugin wrote past the extent, or -1.
    long first_written() const {
        if (at_ == nullptr || std::memcmp(at_, pattern().data(), kOutputGuardBytes) == 0) return -1;
        for (size_t i = 0; i < kOutputGuardBytes; ++i) {
            if (at_[i] != kPattern) return static_cast<long>(i);
        }
        return -1;
    }

private:
    static constexpr unsigned char kPattern = 0xA5;
    static const std::array<unsigned char, kOutputGuardBytes>& pattern() {
        static const std::array<unsigned char, kOutputGuardBytes> block = [] {
            std::array<unsigned char, kOutputGuardBytes> b{};
            b.fill(kPattern);
            return b;
        }();
        return block;
    }
    const char* name_;
    size_t count_;
    unsigned char* at_;
    unsigned char saved_[kOutputGuardBytes];
};

}  // namespace pivot
