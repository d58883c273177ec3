#include "collision/broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/radix_sort.hpp"

namespace pivot::collision {

namespace {

std::uint64_t body_key(std::int32_t a, std::int32_t b) {
    if (a > b) std::swap(a, b);
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
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

void Broadphase::add_pair(const std::vector<ShapeInstance>& shapes, std::uint32_t a, std::uint32_t b) {
    if (skip(shapes[a].shape.body, shapes[b].shape.body)) return;
    pairs_.push_back({std::min(a, b), std::max(a, b)});
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
    used_grid_ = method_ == Method::automatic && grid_pairs(shapes);
    if (!used_grid_) {
        Eigen::Index axis = 0;
        if (!finite_.empty()) {
            const double count = static_cast<double>(finite_.size());
            const Vec3 variance = sum2 / count - (sum / count).cwiseProduct(sum / count);
            variance.maxCoeff(&axis);
        }
        sweep_pairs(shapes, axis);
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
            add_pair(shapes, p, s);
        }
    }
    // By (a, b): the same order as std::sort (the keys are distinct).
    radix_sort(pairs_, pairs_scratch_, [](const ShapePair& p) { return std::uint64_t{p.a} << 32 | p.b; });
    return pairs_;
}

void Broadphase::sweep_pairs(const std::vector<ShapeInstance>& shapes, Eigen::Index axis) {
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
        const SweepBox& bi = sorted_[i];
        const double end = bi.hi;
        for (std::size_t j = i + 1; j < finite_.size(); ++j) {
            const SweepBox& bj = sorted_[j];
            if (bj.lo > end) break;
            // Along the sweep axis they overlap (bi.lo <= bj.lo <= end); the
            // other two axes with & (no early exit): most candidates miss,
            // unpredictably, and a branch per comparison costs more.
            const bool overlap = (bj.lo1 <= bi.hi1) & (bi.lo1 <= bj.hi1) & (bj.lo2 <= bi.hi2) & (bi.lo2 <= bj.hi2);
            if (overlap) add_pair(shapes, finite_[i], finite_[j]);
        }
    }
}

bool Broadphase::grid_pairs(const std::vector<ShapeInstance>& shapes) {
    const std::size_t n = finite_.size();
    if (n < kGridMinimum) return false;
    // Small boxes: largest extent at most twice the median's.
    extents_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Aabb& b = aabbs_[finite_[i]];
        if (!(b.min.allFinite() && b.max.allFinite())) return false;  // the sweep copes (it pairs nothing with NaN)
        extents_[i] = (b.max - b.min).maxCoeff();
    }
    const auto median = extents_.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(extents_.begin(), median, extents_.end());
    const double limit = 2.0 * *median;
    large_.clear();
    double cell = 0.0;
    Vec3 low = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 high = -low;
    for (const std::uint32_t s : finite_) {
        const Aabb& b = aabbs_[s];
        const double extent = (b.max - b.min).maxCoeff();
        if (extent > limit) {
            large_.push_back(s);
            continue;
        }
        cell = std::max(cell, extent);
        low = low.cwiseMin(b.min);
        high = high.cwiseMax(b.min);
    }
    // Every large shape meets every shape: worth it while they are few.
    if (16 * large_.size() > n || !(cell > 0.0)) return false;
    // 0.1 % above the largest small box, so that two overlapping small boxes
    // lie in the same or adjacent cells despite the rounding of
    // (min - low) / cell.
    cell *= 1.001;
    const double inverse = 1.0 / cell;
    // The cells over the small boxes' lowest corners, as a dense array: at
    // most 8 per shape (a pile, a heap, a bucket of gravel fills its box);
    // shapes spread thinner than that (debris over a whole site) go to the
    // sweep, which does well when few boxes share a stretch of an axis.
    const Vec3 span = ((high - low) * inverse).array().floor() + 1.0;
    const double most = 8.0 * static_cast<double>(n) + 4096.0;
    if (!(span.x() * span.y() * span.z() <= most)) return false;
    const auto nx = static_cast<std::uint32_t>(span.x()), ny = static_cast<std::uint32_t>(span.y());
    const auto cells = static_cast<std::uint32_t>(span.x() * span.y() * span.z());
    // Each small shape's cell, then the shapes by cell (a counting sort: in
    // finite_'s order, ascending index, within a cell).
    grid_entries_.clear();
    cell_begin_.assign(std::size_t{cells} + 1, 0);
    for (const std::uint32_t s : finite_) {
        const Aabb& b = aabbs_[s];
        if ((b.max - b.min).maxCoeff() > limit) continue;
        // min(.., span - 1): the rounding of the top corner cannot leave the array.
        const Vec3 c = ((b.min - low) * inverse).array().floor().min(span.array() - 1.0);
        const auto index = static_cast<std::uint32_t>(c.x() + span.x() * (c.y() + span.y() * c.z()));
        grid_entries_.push_back({index, s});
        ++cell_begin_[index + 1];
    }
    for (std::uint32_t c = 0; c < cells; ++c) cell_begin_[c + 1] += cell_begin_[c];
    const std::size_t m = grid_entries_.size();
    grid_shapes_.resize(m);
    grid_boxes_.resize(m);
    cell_fill_.assign(cell_begin_.begin(), cell_begin_.end() - 1);
    for (const GridEntry& e : grid_entries_) {
        const std::uint32_t k = cell_fill_[e.cell]++;
        grid_shapes_[k] = e.shape;
        grid_boxes_[k] = aabbs_[e.shape];
    }
    // A cell's pairs, then with the 13 neighbours after it in index order
    // (offsets {dx, dy, dz} with (dz, dy, dx) lexicographically positive):
    // each pair of shapes in the same or adjacent cells is met once.
    static constexpr int kForward[13][3] = {{1, 0, 0},  {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},  {-1, -1, 1},
                                            {0, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {0, 0, 1},  {1, 0, 1},
                                            {-1, 1, 1}, {0, 1, 1},  {1, 1, 1}};
    const auto nz = static_cast<std::uint32_t>(span.z());
    for (std::uint32_t z = 0, c = 0; z < nz; ++z) {
        for (std::uint32_t y = 0; y < ny; ++y) {
            for (std::uint32_t x = 0; x < nx; ++x, ++c) {
                const std::uint32_t begin = cell_begin_[c], end = cell_begin_[c + 1];
                if (begin == end) continue;
                for (std::uint32_t p = begin; p < end; ++p) {
                    for (std::uint32_t q = p + 1; q < end; ++q) {
                        if (grid_boxes_[p].overlaps(grid_boxes_[q])) {
                            add_pair(shapes, grid_shapes_[p], grid_shapes_[q]);
                        }
                    }
                }
                for (const auto& o : kForward) {
                    const std::int64_t ox = std::int64_t{x} + o[0], oy = std::int64_t{y} + o[1];
                    const std::int64_t oz = std::int64_t{z} + o[2];
                    if (ox < 0 || ox >= nx || oy < 0 || oy >= ny || oz >= nz) continue;
                    const auto other = static_cast<std::uint32_t>(ox + nx * (oy + std::int64_t{ny} * oz));
                    for (std::uint32_t q = cell_begin_[other]; q < cell_begin_[other + 1]; ++q) {
                        for (std::uint32_t p = begin; p < end; ++p) {
                            if (grid_boxes_[p].overlaps(grid_boxes_[q])) {
                                add_pair(shapes, grid_shapes_[p], grid_shapes_[q]);
                            }
                        }
                    }
                }
            }
        }
    }
    // The large shapes against every other shape, each pair once.
    for (std::size_t i = 0; i < large_.size(); ++i) {
        const Aabb& box = aabbs_[large_[i]];
        for (std::size_t k = 0; k < m; ++k) {
            if (box.overlaps(grid_boxes_[k])) add_pair(shapes, large_[i], grid_shapes_[k]);
        }
        for (std::size_t j = i + 1; j < large_.size(); ++j) {
            if (box.overlaps(aabbs_[large_[j]])) add_pair(shapes, large_[i], large_[j]);
        }
    }
    return true;
}

}  // namespace pivot::collision
