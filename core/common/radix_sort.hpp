// Least-significant-digit radix sort by a 64-bit key, 8 bits a pass, for
// the step's sorts of thousands of items (contact ids, shape pairs): linear
// and branch-free where std::sort's comparisons of random keys mispredict
// about half the time. Passes whose digit is the same for every item are
// skipped (a scene's small indices take a few passes); up to 64 items, an
// insertion sort (a pass's 256 counters would cost more). Stable: items
// with equal keys keep their order. `scratch` is the other buffer; both
// keep their capacity, so once sizes stop growing nothing is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pivot {

template <class T, class Key>
void radix_sort(std::vector<T>& items, std::vector<T>& scratch, Key key) {
    if (items.size() <= 64) {
        for (std::size_t i = 1; i < items.size(); ++i) {
            const T item = items[i];
            const std::uint64_t k = key(item);
            std::size_t j = i;
            for (; j > 0 && key(items[j - 1]) > k; --j) items[j] = items[j - 1];
            items[j] = item;
        }
        return;
    }
    std::uint64_t all_or = 0, all_and = ~std::uint64_t{0};
    for (const T& item : items) {
        const std::uint64_t k = key(item);
        all_or |= k;
        all_and &= k;
    }
    scratch.resize(items.size());
    for (int shift = 0; shift < 64; shift += 8) {
        if (((all_or ^ all_and) >> shift & 0xffu) == 0) continue;  // one digit for all: already in order
        std::size_t count[257] = {};
        for (const T& item : items) ++count[(key(item) >> shift & 0xffu) + 1];
        for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
        for (const T& item : items) scratch[count[key(item) >> shift & 0xffu]++] = item;
        items.swap(scratch);
    }
}

}  // namespace pivot
