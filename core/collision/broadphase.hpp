// Broadphase: candidate shape pairs whose AABBs (grown by a margin) overlap.
//
// Two methods, the same pairs:
//  - Sweep and prune along the axis of largest variance of the AABB
//    centres: O(n log n + k) for n finite shapes and k pairs overlapping
//    along that axis. k grows faster than the true pairs in dense 3-D
//    scenes (about n^(5/3)): in a pile of 1000 spheres in a 1 m box each
//    sphere meets ~100 candidates along any axis, for ~10 true neighbours.
//  - A uniform grid, for many shapes of similar size packed together:
//    cubic cells as large as the largest "small" box (extent at most twice
//    the median), each small shape in the cell of its box's lowest corner,
//    so two small boxes that overlap lie in the same or adjacent cells;
//    each cell's shapes meet those of the cell and of 13 of its 26
//    neighbours (every pair once). The few large shapes (walls, a truck
//    bed) meet every shape directly. Used when there are at least
//    kGridMinimum finite shapes, every box is finite, at most one in 16 is
//    large and the cells over the small ones number at most 8 per shape
//    (+4096); else the sweep.
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
    // Every axis with & (no early exit): most broadphase candidates miss,
    // unpredictably, and a branch per comparison costs more. (On plain
    // values: clang warns of & between calls, which might have effects.)
    bool overlaps(const Aabb& o) const {
        const double *lo = min.data(), *hi = max.data(), *o_lo = o.min.data(), *o_hi = o.max.data();
        return (lo[0] <= o_hi[0]) & (o_lo[0] <= hi[0]) & (lo[1] <= o_hi[1]) & (o_lo[1] <= hi[1]) & (lo[2] <= o_hi[2]) &
               (o_lo[2] <= hi[2]);
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
    // Which method find_pairs uses: the grid when it pays (above), or
    // always the sweep (for tests that compare the two).
    enum class Method { automatic, sweep };
    void set_method(Method method) { method_ = method; }
    // Whether the last find_pairs used the grid.
    bool used_grid() const { return used_grid_; }
    static constexpr std::size_t kGridMinimum = 64;
    const std::vector<Aabb>& aabbs() const { return aabbs_; }

private:
    bool skip(std::int32_t body_a, std::int32_t body_b) const;
    void add_pair(const std::vector<ShapeInstance>& shapes, std::uint32_t a, std::uint32_t b);
    void sweep_pairs(const std::vector<ShapeInstance>& shapes, Eigen::Index axis);
    // False (nothing added) when the grid does not pay for these shapes.
    bool grid_pairs(const std::vector<ShapeInstance>& shapes);

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
    // The grid: each small shape's cell (index into the dense array of
    // cells, x fastest), the cells' first entries in the shapes sorted by
    // cell, and those shapes and their boxes in that order.
    struct GridEntry {
        std::uint32_t cell;
        std::uint32_t shape;
    };
    std::vector<std::uint32_t> large_;
    std::vector<GridEntry> grid_entries_;
    std::vector<std::uint32_t> cell_begin_;
    std::vector<std::uint32_t> cell_fill_;
    std::vector<std::uint32_t> grid_shapes_;
    std::vector<Aabb> grid_boxes_;
    std::vector<double> extents_;  // the median's scratch
    Method method_ = Method::automatic;
    bool used_grid_ = false;
    std::vector<std::uint32_t> planes_;
    std::vector<ShapePair> pairs_;
    std::vector<ShapePair> pairs_scratch_;  // the radix sort's other buffer
    std::vector<std::uint64_t> excluded_;  // sorted keys of (min body, max body)
    Filter filter_ = nullptr;
    void* filter_user_ = nullptr;
};

}  // namespace pivot::collision
