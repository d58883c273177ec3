// Broadphase: candidate shape pairs whose AABBs (grown by a margin) overlap.
//
// Sweep and prune along the axis of largest variance of the AABB centres:
// O(n log n + k) for n finite shapes and k pairs overlapping along that axis
// (k grows faster than the true pairs in dense uniform 3-D scenes, about
// n^(5/3): a whole detect() measured 2.5 / 16 / 93 ms for 1000 / 5000 /
// 20000 mixed shapes, one per m^3, -O2, one core).
// A uniform grid or a dynamic AABB tree would be the next step there.
// Static planes are infinite and are paired with every body shape directly.
// Skipped: two shapes of the same body (all static shapes count as one
// body), excluded body pairs (e.g. bodies connected by a joint) and pairs the
// optional filter rejects. Output pairs (a < b, shape indices) are sorted, so
// the order is deterministic. Vectors are kept between calls: no allocation
// once the counts stop growing.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "collision/shapes.hpp"

namespace pivot::collision {

struct Aabb {
    Vec3 min = Vec3::Zero();
    Vec3 max = Vec3::Zero();
    bool overlaps(const Aabb& o) const {
        return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
    }
};

// The AABB of a placed shape grown by `margin` on every side; planes give an
// infinite box.
Aabb compute_aabb(const ShapeInstance& s, double margin);

struct ShapePair {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    friend bool operator<(const ShapePair& x, const ShapePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }
    friend bool operator==(const ShapePair& x, const ShapePair& y) { return x.a == y.a && x.b == y.b; }
};

class Broadphase {
public:
    // Returns true to SKIP the pair of bodies (body indices, kStaticBody for static).
    using Filter = bool (*)(std::int32_t body_a, std::int32_t body_b, void* user);

    // Bodies that never collide with each other (order inside a pair is free).
    void set_excluded_body_pairs(const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs);
    void set_filter(Filter filter, void* user) { filter_ = filter, filter_user_ = user; }

    // Pairs of indices into `shapes` (index in the vector, which should equal
    // ShapeInstance::index).
    const std::vector<ShapePair>& find_pairs(const std::vector<ShapeInstance>& shapes, double margin);
    const std::vector<ShapePair>& pairs() const { return pairs_; }
    const std::vector<Aabb>& aabbs() const { return aabbs_; }

private:
    bool skip(std::int32_t body_a, std::int32_t body_b) const;

    std::vector<Aabb> aabbs_;
    std::vector<std::uint32_t> finite_;  // sorted along the sweep axis
    // aabbs_ of finite_, in that order, the sweep axis first: the sweep's
    // inner loop streams these and tests the other two axes without a
    // branch per comparison.
    struct SweepBox {
        double lo, hi;    // along the sweep axis
        double lo1, hi1;  // the next axis
        double lo2, hi2;  // the one after
    };
    std::vector<SweepBox> sorted_;
    std::vector<std::uint32_t> planes_;
    std::vector<ShapePair> pairs_;
    std::vector<ShapePair> pairs_scratch_;  // the radix sort's other buffer
    std::vector<std::uint64_t> excluded_;  // sorted keys of (min body, max body)
    Filter filter_ = nullptr;
    void* filter_user_ = nullptr;
};

}  // namespace pivot::collision
