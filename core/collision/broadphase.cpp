#include "collision/broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot::collision {

namespace {

std::uint64_t body_key(std::int32_t a, std::int32_t b) {
    if (a > b) std::swap(a, b);
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

// Sorts the pairs by (a, b): least significant digit first, 8 bits a pass
// over the 64-bit key a << 32 | b, passes whose digit is the same for every
// pair skipped (a few passes for a scene's indices). The same order as
// std::sort (the keys are distinct) at a fraction of its cost for
// thousands of pairs.
void sort_pairs(std::vector<ShapePair>& pairs, std::vector<ShapePair>& scratch) {
    const auto key = [](const ShapePair& p) { return (static_cast<std::uint64_t>(p.a) << 32) | p.b; };
    std::uint64_t all_or = 0, all_and = ~std::uint64_t{0};
    for (const ShapePair& p : pairs) {
        all_or |= key(p);
        all_and &= key(p);
    }
    scratch.resize(pairs.size());
    for (int shift = 0; shift < 64; shift += 8) {
        if (((all_or ^ all_and) >> shift & 0xffu) == 0) continue;  // one digit for all: already in order
        std::size_t count[257] = {};
        for (const ShapePair& p : pairs) ++count[(key(p) >> shift & 0xffu) + 1];
        for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
        for (const ShapePair& p : pairs) scratch[count[key(p) >> shift & 0xffu]++] = p;
        pairs.swap(scratch);
    }
}

}  // namespace

Aabb compute_aabb(const ShapeInstance& s, double margin) {
    const Vec3& c = s.pose.position;
    const Mat3 R = s.pose.orientation.toRotationMatrix();
    Vec3 e = Vec3::Zero();
    switch (s.shape.type) {
        case ShapeType::sphere:
            e.setConstant(s.shape.radius);
            break;
        case ShapeType::box:
            e = R.cwiseAbs() * (0.5 * s.shape.size);
            break;
        case ShapeType::capsule:
            e = R.col(2).cwiseAbs() * (0.5 * s.shape.length) + Vec3::Constant(s.shape.radius);
            break;
        case ShapeType::cylinder: {
            const Vec3 a = R.col(2);
            for (int i = 0; i < 3; ++i)
                e[i] = 0.5 * s.shape.length * std::abs(a[i]) + s.shape.radius * std::sqrt(std::max(0.0, 1.0 - a[i] * a[i]));
            break;
        }
        case ShapeType::plane: {
            const double inf = std::numeric_limits<double>::infinity();
            return {Vec3::Constant(-inf), Vec3::Constant(inf)};
        }
    }
    e.array() += margin;
    return {c - e, c + e};
}

void Broadphase::set_excluded_body_pairs(const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs) {
    excluded_.clear();
    for (const auto& p : pairs) excluded_.push_back(body_key(p.first, p.second));
    std::sort(excluded_.begin(), excluded_.end());
}

bool Broadphase::skip(std::int32_t body_a, std::int32_t body_b) const {
    if (body_a == body_b) return true;  // same body, or both static
    if (filter_ != nullptr && filter_(body_a, body_b, filter_user_)) return true;  // the cheaper test first
    return !excluded_.empty() && std::binary_search(excluded_.begin(), excluded_.end(), body_key(body_a, body_b));
}

const std::vector<ShapePair>& Broadphase::find_pairs(const std::vector<ShapeInstance>& shapes, double margin) {
    const std::size_t n = shapes.size();
    aabbs_.resize(n);
    finite_.clear();
    planes_.clear();
    pairs_.clear();
    Vec3 sum = Vec3::Zero();
    Vec3 sum2 = Vec3::Zero();
    for (std::size_t i = 0; i < n; ++i) {
        aabbs_[i] = compute_aabb(shapes[i], margin + shapes[i].sweep);
        if (shapes[i].shape.type == ShapeType::plane) {
            planes_.push_back(static_cast<std::uint32_t>(i));
            continue;
        }
        finite_.push_back(static_cast<std::uint32_t>(i));
        const Vec3 centre = 0.5 * (aabbs_[i].min + aabbs_[i].max);
        sum += centre;
        sum2 += centre.cwiseProduct(centre);
    }
    Eigen::Index axis = 0;
    if (!finite_.empty()) {
        const double count = static_cast<double>(finite_.size());
        const Vec3 variance = sum2 / count - (sum / count).cwiseProduct(sum / count);
        variance.maxCoeff(&axis);
    }
    // Ties broken by index: a total order, so the sweep is deterministic.
    std::sort(finite_.begin(), finite_.end(), [&](std::uint32_t x, std::uint32_t y) {
        const double mx = aabbs_[x].min[axis];
        const double my = aabbs_[y].min[axis];
        return mx != my ? mx < my : x < y;
    });
    // The boxes in sweep order, contiguous: the inner loop streams through memory.
    const Eigen::Index axis1 = (axis + 1) % 3, axis2 = (axis + 2) % 3;
    sorted_.resize(finite_.size());
    for (std::size_t i = 0; i < finite_.size(); ++i) {
        const Aabb& b = aabbs_[finite_[i]];
        sorted_[i] = {b.min[axis], b.max[axis], b.min[axis1], b.max[axis1], b.min[axis2], b.max[axis2]};
    }
    for (std::size_t i = 0; i < finite_.size(); ++i) {
        const std::uint32_t si = finite_[i];
        const SweepBox& bi = sorted_[i];
        const double end = bi.hi;
        for (std::size_t j = i + 1; j < finite_.size(); ++j) {
            const SweepBox& bj = sorted_[j];
            if (bj.lo > end) break;
            // Along the sweep axis they overlap (bi.lo <= bj.lo <= end); the
            // other two axes with & (no early exit): most candidates miss,
            // unpredictably, and a branch per comparison costs more.
            const bool overlap = (bj.lo1 <= bi.hi1) & (bi.lo1 <= bj.hi1) & (bj.lo2 <= bi.hi2) & (bi.lo2 <= bj.hi2);
            if (!overlap) continue;
            const std::uint32_t sj = finite_[j];
            if (skip(shapes[si].shape.body, shapes[sj].shape.body)) continue;
            pairs_.push_back({std::min(si, sj), std::max(si, sj)});
        }
    }
    for (const std::uint32_t p : planes_) {
        // Only the shapes whose box (grown by the margin) reaches the solid
        // half-space n.x <= d: the box's lowest point along n,
        // n.c - |n|.e, is within it. Conservative: a point within the margin
        // of the plane lies in a box grown by the margin along every axis.
        const Vec3 normal = (shapes[p].pose.orientation * shapes[p].shape.normal).normalized();
        const double d = shapes[p].shape.offset + normal.dot(shapes[p].pose.position);
        for (const std::uint32_t s : finite_) {
            const Aabb& box = aabbs_[s];
            const Vec3 c = 0.5 * (box.min + box.max);
            const Vec3 e = 0.5 * (box.max - box.min);
            if (normal.dot(c) - normal.cwiseAbs().dot(e) > d) continue;
            if (skip(shapes[p].shape.body, shapes[s].shape.body)) continue;
            pairs_.push_back({std::min(p, s), std::max(p, s)});
        }
    }
    sort_pairs(pairs_, pairs_scratch_);
    return pairs_;
}

}  // namespace pivot::collision
