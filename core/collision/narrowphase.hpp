// Narrowphase: contact points for one pair of placed shapes.
//
// collide() appends to `out` the contacts of the pair (a, b) whose depth is
// >= -margin, at most 4 per pair (manifolds are reduced to the deepest point
// and the spread). Normals point from a to b whatever the argument order.
// It allocates nothing once `out` has the capacity.
//
// Algorithms per pair family (one file each):
//   narrowphase_sphere.cpp    sphere vs sphere/capsule/box/cylinder: exact, via the
//                             closest point / signed distance of the other shape.
//   narrowphase_plane.cpp     plane vs sphere/capsule/box/cylinder: exact vertex
//                             tests (box corners, capsule end spheres, cylinder rims).
//   narrowphase_capsule.cpp   capsule-capsule: segment closest points, 2 points when
//                             parallel; capsule-box / capsule-cylinder: end spheres
//                             plus the minimum of the (convex) signed distance along
//                             the segment, found by golden-section search.
//   narrowphase_box.cpp       box-box: SAT over the 15 axes, face-face by clipping the
//                             incident face against the reference face, edge-edge by
//                             closest points of the edges.
//   narrowphase_cylinder.cpp  box-cylinder, cylinder-cylinder: APPROXIMATE. SAT over a
//                             finite set of candidate axes (face normals, cylinder axes,
//                             their cross products, the direction between the closest
//                             points of the cores), then feature clipping with each cap
//                             as an inscribed 16-gon. Exact for resting configurations
//                             (standing, lying, stacked); for general poses the normal is
//                             the best candidate axis, not the true minimum translation.
//
// Feature indices (for persistent ids): see each family's file.
#pragma once

#include "collision/shapes.hpp"

namespace pivot::collision {

// Appends the contacts of (a, b); returns how many were appended.
std::size_t collide(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);

}  // namespace pivot::collision
