// Narrowphase dispatch: orders the pair by shape type, calls the family
// function, then flips normals back and assigns the persistent ids.
#include "collision/narrowphase.hpp"

#include "collision/narrowphase_internal.hpp"

namespace pivot::collision {

namespace {

using PairFn = void (*)(const ShapeInstance&, const ShapeInstance&, double, ContactBuffer&);

// Indexed [lower type][higher type]; nullptr = no contact (plane-plane).
constexpr PairFn kTable[kShapeTypeCount][kShapeTypeCount] = {
    // sphere, capsule, box, cylinder, plane
    {detail::sphere_sphere, detail::sphere_capsule, detail::sphere_box, detail::sphere_cylinder, detail::sphere_plane},
    {nullptr, detail::capsule_capsule, detail::capsule_box, detail::capsule_cylinder, detail::capsule_plane},
    {nullptr, nullptr, detail::box_box, detail::box_cylinder, detail::box_plane},
    {nullptr, nullptr, nullptr, detail::cylinder_cylinder, detail::cylinder_plane},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

bool finite(const Contact& c) {
    return c.position.allFinite() && c.normal.allFinite() && std::isfinite(c.depth);
}

// The number a shape's contact ids are made from (Shape::key).
std::uint32_t key(const ShapeInstance& s) { return s.shape.key != Shape::kIndexKey ? s.shape.key : s.index; }

}  // namespace

std::size_t collide(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const auto ta = static_cast<int>(a.shape.type);
    const auto tb = static_cast<int>(b.shape.type);
    const bool swapped = ta > tb;
    const ShapeInstance& first = swapped ? b : a;
    const ShapeInstance& second = swapped ? a : b;
    PairFn fn = kTable[swapped ? tb : ta][swapped ? ta : tb];
    const std::size_t begin = out.contacts.size();
    if (fn == nullptr) return 0;
    fn(first, second, margin, out);
    // Drop anything non-finite (never expected; a guard for degenerate input
    // such as zero-size shapes), then restore the caller's order.
    std::size_t keep = begin;
    for (std::size_t i = begin; i < out.contacts.size(); ++i) {
        Contact c = out.contacts[i];
        if (!finite(c)) continue;
        if (swapped) {
            c.normal = -c.normal;
            std::swap(c.shape_a, c.shape_b);
        }
        c.id = contact_id(key(a), key(b), c.feature);  // c.shape_a is a's again
        out.contacts[keep++] = c;
    }
    out.contacts.resize(keep);
    return keep - begin;
}

}  // namespace pivot::collision
