#pragma once
// The path of a massless rope over its route (docs/engine.md "Ropes and
// sheaves"): straight segments between consecutive route points, wrapped
// around the sheaves among them. A route point with radius r > 0 is a
// sheave: a circle of radius r about `axis` through `centre`, which the rope
// wraps counterclockwise about the axis (right hand) as it runs from the
// first point to the last. A point with r = 0 is a point the rope passes
// through (an eye, a fairlead, an end).
//
// Where the rope meets a sheave it is tangent to the circle: from a point X,
// the tangent point t = c + r rho has (t - X) . (t - c) = 0, which involves
// only the in-plane part of X - c, so it is the planar tangent of X
// projected onto the sheave's plane. Neighbouring sheaves' tangent points
// depend on each other; a few Gauss-Seidel sweeps find them (most routes:
// one or two). The length is the straight segments plus r phi per sheave,
// phi the wrap angle, in (-pi/2, 3 pi/2]: a slightly negative wrap (the
// rope pulled to the wrong side of a sheave) keeps pulling on it as a
// fairlead would, with a length that stays continuous.
//
// Its rate, with the tangent points moving with their bodies (material
// velocities v(t)):  dL/dt = sum over segments e . (v(t_end) - v(t_start)),
// e the segment's unit direction. The sliding of a tangent point along its
// circle changes the segment and the arc by opposite amounts, and a sheave
// spinning about its own axis moves its two tangent points along the rope
// equally, so neither appears (exact for a rope in the sheave's plane; a
// fleet angle beta out of it makes it O(beta^2) approximate).
#include <cstdint>
#include <vector>

#include "world/world_description.hpp"

namespace pivot {

// A route point in world coordinates.
struct RopeVertex {
    Vec3d centre{};
    Vec3d axis{0, 0, 1};  // unit; used when radius > 0
    double radius = 0.0;  // m
};

struct RopePath {
    // Per route point: where the rope arrives and leaves (equal to the
    // centre for radius 0; the end points have only one of them in use).
    std::vector<Vec3d> arrive, leave;
    // Per segment k (between points k and k + 1): unit direction from
    // leave[k] to arrive[k + 1] and length.
    std::vector<Vec3d> direction;
    std::vector<double> segment_length;
    // Per route point: the angle the rope wraps it (rad, in (-pi/2, 3 pi/2];
    // 0 for a point). Negative: the rope bends the wrong way round the sheave.
    std::vector<double> wrap;
    double length = 0.0;  // m: segments and wrapped arcs
    bool degenerate = false;  // a point inside a sheave's circle, or two points on each other
};

// The path over `route` (at least two points); reuses `path`'s storage.
void rope_path(const std::vector<RopeVertex>& route, RopePath& path);

}  // namespace pivot
