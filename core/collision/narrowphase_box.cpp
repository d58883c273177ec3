// Box-box: separating axis test over the 15 axes (3 face normals of each box,
// 9 edge-edge cross products). Face axis: the incident face (most anti-aligned
// with the normal) is clipped against the reference face's side planes
// (Sutherland-Hodgman, up to 8 points), points below the reference plane down
// to -margin are kept and reduced to 4 (deepest, farthest, largest triangle,
// largest quadrilateral). Edge axis: 1 point midway between the closest
// points of the two supporting edges.
// Edge axes must beat the best face axis by 5 % of its magnitude (plus 1e-9): face contacts
// are preferred when nearly tied, which keeps resting stacks on 4 points.
// Features: face contacts (face code A << 8 | face code B) << 12 | clip tag;
// edge contacts 0x40000000 | edge of A (axis, sign bits) | edge of B.
#include <limits>

#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

void box_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Mat3 Ra = a.pose.orientation.toRotationMatrix();
    const Mat3 Rb = b.pose.orientation.toRotationMatrix();
    const Vec3 ha = 0.5 * a.shape.size;
    const Vec3 hb = 0.5 * b.shape.size;
    const Vec3 D = b.pose.position - a.pose.position;

    auto overlap_on = [&](const Vec3& L) {
        double ra = 0.0, rb = 0.0;
        for (int k = 0; k < 3; ++k) {
            ra += ha[k] * std::abs(L.dot(Ra.col(k)));
            rb += hb[k] * std::abs(L.dot(Rb.col(k)));
        }
        return ra + rb - std::abs(L.dot(D));
    };

    double best_face = std::numeric_limits<double>::infinity();
    Vec3 face_axis = Vec3::UnitZ();
    for (int k = 0; k < 6; ++k) {
        const Vec3 L = k < 3 ? Vec3(Ra.col(k)) : Vec3(Rb.col(k - 3));
        const double o = overlap_on(L);
        if (o < -margin) return;
        // Ties go to the earlier axis (A's faces first): 1e-12 relative.
        if (k == 0 || o < best_face - 1e-12 * (1.0 + std::abs(best_face))) best_face = o, face_axis = L;
    }
    double best_edge = std::numeric_limits<double>::infinity();
    Vec3 edge_axis = Vec3::UnitZ();
    int edge_i = -1, edge_j = -1;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            Vec3 L = Ra.col(i).cross(Rb.col(j));
            const double len = L.norm();
            if (len < 1e-6) continue;  // parallel edges: covered by the face axes
            L /= len;
            const double o = overlap_on(L);
            if (o < -margin) return;
            if (o < best_edge) best_edge = o, edge_axis = L, edge_i = i, edge_j = j;
        }
    }
    if (edge_i >= 0 && best_edge < best_face - 0.05 * std::abs(best_face) - 1e-9) {
        const Vec3 n = edge_axis.dot(D) >= 0.0 ? edge_axis : Vec3(-edge_axis);
        Vec3 ca = a.pose.position;
        Vec3 cb = b.pose.position;
        std::uint32_t bits_a = 0, bits_b = 0;
        for (int k = 0; k < 3; ++k) {
            if (k != edge_i) {
                const double s = n.dot(Ra.col(k)) >= 0.0 ? 1.0 : -1.0;
                ca += Ra.col(k) * (s * ha[k]);
                bits_a |= (s > 0 ? 1u : 0u) << k;
            }
            if (k != edge_j) {
                const double s = n.dot(Rb.col(k)) <= 0.0 ? 1.0 : -1.0;
                cb += Rb.col(k) * (s * hb[k]);
                bits_b |= (s > 0 ? 1u : 0u) << k;
            }
        }
        const Segment ea{ca - Ra.col(edge_i) * ha[edge_i], ca + Ra.col(edge_i) * ha[edge_i]};
        const Segment eb{cb - Rb.col(edge_j) * hb[edge_j], cb + Rb.col(edge_j) * hb[edge_j]};
        double t1 = 0, t2 = 0;
        Vec3 p1, p2;
        closest_segment_segment(ea, eb, t1, t2, p1, p2);
        const auto feature = 0x40000000u | (static_cast<std::uint32_t>(edge_i) << 12) | (bits_a << 8) |
                             (static_cast<std::uint32_t>(edge_j) << 4) | bits_b;
        emit(out, a, b, 0.5 * (p1 + p2), n, best_edge, feature);
        return;
    }
    const Vec3 n = face_axis.dot(D) >= 0.0 ? face_axis : Vec3(-face_axis);
    const Feature fa = extreme_feature(a, n, true);
    const Feature fb = extreme_feature(b, -n, true);
    contacts_from_features(fa, fb, n, best_face, margin, a, b, out);
}

}  // namespace pivot::collision::detail
