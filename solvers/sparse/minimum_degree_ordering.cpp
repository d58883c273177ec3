#include "minimum_degree_ordering.hpp"

#include <algorithm>

namespace pivot::sparse {

void MinimumDegreeOrdering::reserve(int32_t nodes, int64_t entries) {
    // The live lists never take more room than the input pattern (eliminating
    // p frees p's list and the lists of the elements it absorbs, which hold
    // every variable of the new element), so entries + nodes always suffices
    // after compaction; the extra half keeps compactions rare.
    const auto capacity = static_cast<size_t>(entries + entries / 2 + 2 * static_cast<int64_t>(nodes) + 16);
    if (lists_.size() < capacity) lists_.resize(capacity);
    const auto n = static_cast<size_t>(nodes) + 1;
    if (list_start_.size() >= n) return;
    list_start_.resize(n);
    list_length_.resize(n);
    element_count_.resize(n);
    element_size_.resize(n);
    state_.resize(n);
    degree_.resize(n);
    bucket_head_.resize(n);
    bucket_next_.resize(n);
    bucket_prev_.resize(n);
    member_stamp_.resize(n);
    element_stamp_.resize(n);
    element_outside_.resize(n);
}

void MinimumDegreeOrdering::bucket_insert(int32_t node, int32_t degree) {
    const int32_t first = bucket_head_[degree];
    bucket_next_[node] = first;
    bucket_prev_[node] = -1;
    if (first != -1) bucket_prev_[first] = node;
    bucket_head_[degree] = node;
    degree_[node] = degree;
}

void MinimumDegreeOrdering::bucket_remove(int32_t node) {
    const int32_t next = bucket_next_[node];
    const int32_t prev = bucket_prev_[node];
    if (next != -1) bucket_prev_[next] = prev;
    if (prev != -1) {
        bucket_next_[prev] = next;
    } else {
        bucket_head_[degree_[node]] = next;
    }
}

void MinimumDegreeOrdering::compact(int32_t nodes) {
    // Mark the head of every live list with its node (as -(node + 1)), keeping
    // the entry it replaces in list_start_; then slide the lists left in
    // memory order. Entries are node ids >= 0, so a negative one is a head.
    for (int32_t j = 0; j < nodes; ++j) {
        if (state_[j] == kAbsorbed || list_length_[j] == 0) continue;
        const int64_t head = list_start_[j];
        list_start_[j] = lists_[head];
        lists_[head] = -(j + 1);
    }
    int64_t write = 0;
    for (int64_t read = 0; read < tail_;) {
        if (lists_[read] >= 0) {
            ++read;
            continue;
        }
        const int32_t j = -lists_[read] - 1;
        const auto kept = static_cast<int32_t>(list_start_[j]);
        list_start_[j] = write;
        lists_[write++] = kept;
        for (int32_t t = 1; t < list_length_[j]; ++t) lists_[write++] = lists_[read + t];
        read += list_length_[j];
    }
    tail_ = write;
}

bool MinimumDegreeOrdering::order(int32_t nodes, const int32_t* start, const int32_t* rows, int32_t* order) {
    const int32_t m = nodes;
    const int64_t entries = start[m];
    if (static_cast<int64_t>(list_start_.size()) < m + 1 ||
        static_cast<int64_t>(lists_.size()) < entries + m + 16) {
        return false;
    }
    for (int32_t j = 0; j < m; ++j) {
        list_start_[j] = start[j];
        list_length_[j] = start[j + 1] - start[j];
        element_count_[j] = 0;
        element_size_[j] = 0;
        state_[j] = kVariable;
        member_stamp_[j] = 0;
        element_stamp_[j] = 0;
        element_outside_[j] = 0;
    }
    std::copy(rows, rows + entries, lists_.begin());
    tail_ = entries;
    std::fill(bucket_head_.begin(), bucket_head_.begin() + m + 1, -1);
    for (int32_t j = m - 1; j >= 0; --j) bucket_insert(j, std::min(list_length_[j], m));

    const auto capacity = static_cast<int64_t>(lists_.size());
    int32_t min_degree = 0;
    for (int32_t k = 0; k < m; ++k) {
        while (bucket_head_[min_degree] == -1) ++min_degree;
        const int32_t p = bucket_head_[min_degree];
        bucket_remove(p);
        order[k] = p;
        const int32_t stamp = k + 1;

        // Room for the new element: at most the variables of the elements p
        // absorbs plus p's own variable neighbours.
        int64_t needed = list_length_[p] - element_count_[p];
        for (int32_t t = 0; t < element_count_[p]; ++t) {
            const int32_t e = lists_[list_start_[p] + t];
            if (state_[e] == kElement) needed += element_size_[e];
        }
        needed = std::min<int64_t>(needed, m);
        if (tail_ + needed > capacity) {
            compact(m);
            if (tail_ + needed > capacity) return false;
        }

        // The new element L_p: the union of the absorbed elements' variables
        // and p's variable neighbours, without p.
        member_stamp_[p] = stamp;
        const int64_t element_begin = tail_;
        const int64_t p_begin = list_start_[p];
        for (int32_t t = 0; t < list_length_[p]; ++t) {
            const int32_t entry = lists_[p_begin + t];
            if (t < element_count_[p]) {
                if (state_[entry] != kElement) continue;
                const int64_t e_begin = list_start_[entry];
                for (int32_t s = 0; s < list_length_[entry]; ++s) {
                    const int32_t v = lists_[e_begin + s];
                    if (state_[v] == kVariable && member_stamp_[v] != stamp) {
                        member_stamp_[v] = stamp;
                        lists_[tail_++] = v;
                    }
                }
                state_[entry] = kAbsorbed;
            } else if (state_[entry] == kVariable && member_stamp_[entry] != stamp) {
                member_stamp_[entry] = stamp;
                lists_[tail_++] = entry;
            }
        }
        state_[p] = kElement;
        list_start_[p] = element_begin;
        list_length_[p] = static_cast<int32_t>(tail_ - element_begin);
        element_count_[p] = 0;
        element_size_[p] = list_length_[p];
        const int32_t element_size = list_length_[p];
        const int32_t remaining = m - k - 1;  // variables left after p

        // |L_e \ L_p| for every element e next to a variable of L_p
        // (the |L_e \ L_p| computation of Amestoy, Davis & Duff 1996).
        for (int32_t s = 0; s < element_size; ++s) {
            const int32_t u = lists_[element_begin + s];
            const int64_t u_begin = list_start_[u];
            for (int32_t t = 0; t < element_count_[u]; ++t) {
                const int32_t e = lists_[u_begin + t];
                if (state_[e] != kElement || e == p) continue;
                if (element_stamp_[e] != stamp) {
                    element_stamp_[e] = stamp;
                    element_outside_[e] = element_size_[e];
                }
                --element_outside_[e];
            }
        }

        // Update the variables of L_p: drop absorbed elements and neighbours
        // now reached through p, add p, and bound the degree.
        for (int32_t s = 0; s < element_size; ++s) {
            const int32_t u = lists_[element_begin + s];
            bucket_remove(u);
            const int64_t u_begin = list_start_[u];
            const int32_t old_elements = element_count_[u];
            const int32_t old_length = list_length_[u];
            int64_t write = u_begin;
            int64_t outside = 0;
            for (int32_t t = 0; t < old_elements; ++t) {
                const int32_t e = lists_[u_begin + t];
                if (state_[e] != kElement) continue;
                if (element_outside_[e] == 0) {
                    state_[e] = kAbsorbed;  // L_e within L_p: aggressive absorption
                    continue;
                }
                lists_[write++] = e;
                outside += element_outside_[e];
            }
            const auto kept_elements = static_cast<int32_t>(write - u_begin);
            for (int32_t t = old_elements; t < old_length; ++t) {
                const int32_t v = lists_[u_begin + t];
                if (state_[v] == kVariable && member_stamp_[v] != stamp) lists_[write++] = v;
            }
            const auto kept_variables = static_cast<int32_t>(write - u_begin) - kept_elements;
            // u is in L_p through an absorbed element or because p was its
            // neighbour: either way one entry was dropped, so p fits in place.
            // It goes at the end of the element part; the first variable moves last.
            if (kept_variables > 0) lists_[write] = lists_[u_begin + kept_elements];
            lists_[u_begin + kept_elements] = p;
            ++write;
            element_count_[u] = kept_elements + 1;
            list_length_[u] = static_cast<int32_t>(write - u_begin);
            const int64_t bound = static_cast<int64_t>(kept_variables) + (element_size - 1) + outside;
            const auto degree = static_cast<int32_t>(std::max<int64_t>(
                0, std::min<int64_t>({bound, static_cast<int64_t>(degree_[u]) + element_size - 1, remaining - 1})));
            bucket_insert(u, degree);
            min_degree = std::min(min_degree, degree);
        }
    }
    return true;
}

}  // namespace pivot::sparse
