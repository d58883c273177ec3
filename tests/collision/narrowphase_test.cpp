// Narrowphase: analytic cases for every shape pair.
//
// Tolerances: closed-form cases are exact up to rounding of a few operations
// on numbers of order 1, hence 1e-9. Cases going through the golden-section
// search (capsule-box, capsule-cylinder, box-cylinder) converge to 1e-10 in
// the parameter, hence 1e-6 on positions. Cylinder caps are inscribed
// 16-gons: rim points are exact at the polygon vertices, so radial checks
// allow r (1 - cos(pi/16)) = 1.9 % of r.
#include <algorithm>
#include <array>
#include <set>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace pivot::collision {
namespace {

using test::about;
using test::place;
using test::run;

constexpr double kTol = 1e-9;
constexpr double kSearchTol = 1e-6;

void expect_vec(const Vec3& a, const Vec3& b, double tol) {
    EXPECT_NEAR(a.x(), b.x(), tol);
    EXPECT_NEAR(a.y(), b.y(), tol);
    EXPECT_NEAR(a.z(), b.z(), tol);
}

void expect_all(const std::vector<Contact>& cs, const Vec3& normal, double depth, double tol) {
    for (const Contact& c : cs) {
        expect_vec(c.normal, normal, tol);
        EXPECT_NEAR(c.depth, depth, tol);
    }
}

// ---------------------------------------------------------------- spheres
TEST(Narrowphase, SphereSphereDepthAndNormalBothOrders) {
    const auto a = place(Shape::sphere(0.5), Vec3(0, 0, 0), Quat::Identity(), 1);
    const auto b = place(Shape::sphere(0.3), Vec3(0.7, 0, 0), Quat::Identity(), 2);
    auto cs = run(a, b);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.5 + 0.3 - 0.7, kTol);
    expect_vec(cs[0].normal, Vec3::UnitX(), kTol);
    expect_vec(cs[0].position, Vec3(0.45, 0, 0), kTol);  // midway between surfaces x=0.5 and x=0.4
    EXPECT_EQ(cs[0].shape_a, 1u);
    cs = run(b, a);
    ASSERT_EQ(cs.size(), 1u);
    expect_vec(cs[0].normal, -Vec3::UnitX(), kTol);
    EXPECT_EQ(cs[0].shape_a, 2u);
}

TEST(Narrowphase, SphereSphereMargin) {
    const auto a = place(Shape::sphere(0.5), Vec3(0, 0, 0));
    const auto b = place(Shape::sphere(0.5), Vec3(1.05, 0, 0));
    EXPECT_TRUE(run(a, b, 0.01).empty());
    const auto cs = run(a, b, 0.1);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, -0.05, kTol);
}

TEST(Narrowphase, SphereOnPlane) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    const auto s = place(Shape::sphere(0.5), Vec3(1, 2, 0.45));
    auto cs = run(plane, s);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.05, kTol);
    expect_vec(cs[0].normal, Vec3::UnitZ(), kTol);
    expect_vec(cs[0].position, Vec3(1, 2, -0.025), kTol);
    cs = run(s, plane);
    ASSERT_EQ(cs.size(), 1u);
    expect_vec(cs[0].normal, -Vec3::UnitZ(), kTol);
}

TEST(Narrowphase, PlaneOffsetAndPose) {
    // n = +x, d = 2 in the shape frame, the shape moved by +1 in z (irrelevant) and +1 in x.
    const auto plane = place(Shape::plane(Vec3::UnitX(), 2.0), Vec3(1, 0, 1));
    const auto s = place(Shape::sphere(0.5), Vec3(3.4, 0, 0));
    const auto cs = run(plane, s);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.1, kTol);
    expect_vec(cs[0].normal, Vec3::UnitX(), kTol);
}

TEST(Narrowphase, SphereBoxRegions) {
    const auto box = place(Shape::box(Vec3(2, 2, 2)), Vec3::Zero());
    // Face region.
    auto cs = run(place(Shape::sphere(0.5), Vec3(1.4, 0, 0)), box);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.1, kTol);
    expect_vec(cs[0].normal, -Vec3::UnitX(), kTol);
    // Edge region: distance to the edge sqrt(0.3^2 + 0.3^2).
    cs = run(place(Shape::sphere(0.5), Vec3(1.3, 1.3, 0.2)), box);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.5 - std::sqrt(0.18), kTol);
    expect_vec(cs[0].normal, -Vec3(1, 1, 0).normalized(), kTol);
    // Corner region.
    cs = run(place(Shape::sphere(0.5), Vec3(1.2, 1.2, 1.2)), box);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.5 - std::sqrt(0.12), kTol);
    expect_vec(cs[0].normal, -Vec3(1, 1, 1).normalized(), kTol);
    // Centre inside, nearest face +x: pushed out through it.
    cs = run(place(Shape::sphere(0.5), Vec3(0.8, 0.1, 0)), box);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.5 + 0.2, kTol);
    expect_vec(cs[0].normal, -Vec3::UnitX(), kTol);
    // Reverse order.
    cs = run(box, place(Shape::sphere(0.5), Vec3(1.4, 0, 0)));
    ASSERT_EQ(cs.size(), 1u);
    expect_vec(cs[0].normal, Vec3::UnitX(), kTol);
    // Outside beyond the margin.
    EXPECT_TRUE(run(place(Shape::sphere(0.5), Vec3(1.6, 0, 0)), box, 0.05).empty());
}

TEST(Narrowphase, SphereCylinderSideAndCap) {
    const auto cyl = place(Shape::cylinder(0.5, 2.0), Vec3::Zero());
    auto cs = run(place(Shape::sphere(0.2), Vec3(0.65, 0, 0)), cyl);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.05, kTol);
    expect_vec(cs[0].normal, -Vec3::UnitX(), kTol);
    cs = run(cyl, place(Shape::sphere(0.2), Vec3(0.1, 0, 1.15)));
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.05, kTol);
    expect_vec(cs[0].normal, Vec3::UnitZ(), kTol);
    // Rim region: nearest the circle edge at (0.5, 0, 1).
    cs = run(place(Shape::sphere(0.2), Vec3(0.6, 0, 1.1)), cyl);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.2 - std::sqrt(0.02), kTol);
}

TEST(Narrowphase, SphereCapsule) {
    const auto cap = place(Shape::capsule(0.2, 1.0), Vec3::Zero());
    auto cs = run(place(Shape::sphere(0.3), Vec3(0.45, 0, 0.3)), cap);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.05, kTol);
    expect_vec(cs[0].normal, -Vec3::UnitX(), kTol);
    // Beyond the end of the segment: the end sphere.
    cs = run(cap, place(Shape::sphere(0.3), Vec3(0, 0, 0.95)));
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.05, kTol);
    expect_vec(cs[0].normal, Vec3::UnitZ(), kTol);
}

// ---------------------------------------------------------------- planes
TEST(Narrowphase, BoxFlatOnPlaneGivesFourCorners) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    const auto box = place(Shape::box(Vec3(2, 1, 0.5)), Vec3(0, 0, 0.24));
    const auto cs = run(box, plane);
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    for (const Contact& c : cs) {
        EXPECT_NEAR(std::abs(c.position.x()), 1.0, kTol);
        EXPECT_NEAR(std::abs(c.position.y()), 0.5, kTol);
        EXPECT_NEAR(c.position.z(), -0.005, kTol);
    }
    const auto rev = run(plane, box);
    ASSERT_EQ(rev.size(), 4u);
    expect_all(rev, Vec3::UnitZ(), 0.01, kTol);
}

// A thin slab flat on a plane with a margin larger than its thickness: all
// 8 corners are candidates; the 4 kept are the touching bottom ones, not the
// speculative top corners over them (which left the slab on 2 supports and
// made it rock and gain energy at 60 Hz).
TEST(Narrowphase, ThinBoxFlatOnPlaneKeepsTheBottomCornersWithALargeMargin) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    const auto slab = place(Shape::box(Vec3(0.2, 0.2, 0.04)), Vec3(0, 0, 0.02));
    const auto cs = run(slab, plane, 0.05);
    ASSERT_EQ(cs.size(), 4u);
    for (const Contact& c : cs) {
        EXPECT_NEAR(c.depth, 0.0, kTol);
        EXPECT_NEAR(std::abs(c.position.x()), 0.1, kTol);
        EXPECT_NEAR(std::abs(c.position.y()), 0.1, kTol);
    }
}

// The same with the box turned by 1e-11 rad about a horizontal axis (what 5
// s of sliding down an incline left of a box aligned with it): the top
// corners' planar offset of ~2e-12 m over the bottom ones must not make
// them win. With a tie of 1e-12 of the squared size they did (by 5e-13 m^2
// of area); the box lost a supporting corner, rocked and sank 1.1 mm at 60
// Hz (scenes/cone_friction.json). Every turn below 1e-7 rad keeps the
// bottom corners; the tie is ~1e-6 of the manifold's size.
TEST(Narrowphase, NearlyFlatBoxKeepsTheBottomCornersWithALargeMargin) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    for (const double angle : {1e-11, -1e-11, 3e-9, 1e-7}) {
        for (const Vec3& axis : {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 2, 0)}) {
            const auto box = place(Shape::box(Vec3(0.2, 0.2, 0.2)), Vec3(23.7, -4.1, 0.1), about(axis, angle));
            const auto cs = run(box, plane, 0.25);  // all 8 corners are candidates
            ASSERT_EQ(cs.size(), 4u) << angle;
            for (const Contact& c : cs) EXPECT_NEAR(c.depth, 0.0, 1e-7) << "angle " << angle << ": a top corner";
        }
    }
}

// Contact reduction at an absurd scale (a box 1.2e29 m long: worlds refuse
// it, the narrowphase must still not index outside its candidates): every
// distance is below the tie tolerance, so the first candidate is taken.
// It used to index the candidate array with -1 (UBSan).
TEST(Narrowphase, ReductionPicksCandidatesAtAnyScale) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    const auto bar = place(Shape::box(Vec3(1.2e29, 0.2, 0.2)), Vec3(0, 0, 0.09));
    const auto cs = run(bar, plane, 0.25);  // all 8 corners are candidates
    ASSERT_GE(cs.size(), 1u);
    ASSERT_LE(cs.size(), 4u);
    for (const Contact& c : cs) {
        EXPECT_TRUE(c.position.allFinite());
        EXPECT_EQ(std::abs(c.position.x()), 0.6e29);  // a corner
        // A bottom or a top corner (z exact: the box is not rotated).
        EXPECT_TRUE(std::abs(c.depth - 0.01) < 1e-12 || std::abs(c.depth + 0.19) < 1e-12) << c.depth;
    }
}

TEST(Narrowphase, TiltedBoxOnPlaneGivesLowestCorners) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    // Rotated about y: the lowest edge (along y) touches: 2 points.
    const Quat q = about(Vec3::UnitY(), 0.5);
    const Vec3 h(0.5, 0.5, 0.5);
    const double low = (q.toRotationMatrix().row(2).cwiseAbs() * h)(0);  // half height of the rotated box
    auto cs = run(place(Shape::box(2 * h), Vec3(0, 0, low - 0.01), q), plane);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    EXPECT_NEAR(cs[0].position.x(), cs[1].position.x(), kTol);
    EXPECT_NEAR(std::abs(cs[0].position.y()), 0.5, kTol);
    // Rotated about a generic axis: a single lowest corner.
    const Quat q2 = about(Vec3(1, 2, 0.3), 0.7);
    const double low2 = (q2.toRotationMatrix().row(2).cwiseAbs() * h)(0);
    cs = run(place(Shape::box(2 * h), Vec3(0, 0, low2 - 0.01), q2), plane);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.01, kTol);
}

TEST(Narrowphase, CapsuleOnPlaneLyingAndStanding) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    auto cs = run(place(Shape::capsule(0.2, 1.0), Vec3(0, 0, 0.19), about(Vec3::UnitY(), M_PI / 2)), plane);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    EXPECT_NEAR(std::abs(cs[0].position.x()), 0.5, kTol);
    EXPECT_NEAR(std::abs(cs[1].position.x()), 0.5, kTol);
    EXPECT_NE(cs[0].id, cs[1].id);
    cs = run(plane, place(Shape::capsule(0.2, 1.0), Vec3(0, 0, 0.69)), 0.05);
    ASSERT_EQ(cs.size(), 1u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
}

TEST(Narrowphase, CylinderOnPlaneStandingAndLying) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    auto cs = run(place(Shape::cylinder(0.3, 1.0), Vec3(0, 0, 0.49)), plane);
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    for (const Contact& c : cs) EXPECT_NEAR(std::hypot(c.position.x(), c.position.y()), 0.3, kTol);
    cs = run(plane, place(Shape::cylinder(0.3, 1.0), Vec3(0, 0, 0.29), about(Vec3::UnitX(), M_PI / 2)));
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    EXPECT_NEAR(std::abs(cs[0].position.y()), 0.5, kTol);
}

TEST(Narrowphase, TiltedCylinderOnPlaneLowestRimPoint) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero());
    // Tilted 0.3 rad about x: the lowest point of the lower rim is at
    // z = c - (h cos 0.3 + r sin 0.3).
    const double r = 0.3, h = 0.5, t = 0.3;
    const double c = h * std::cos(t) + r * std::sin(t) - 0.01;
    const auto cs = run(place(Shape::cylinder(r, 2 * h), Vec3(0, 0, c), about(Vec3::UnitX(), t)), plane);
    ASSERT_EQ(cs.size(), 1u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
}

// ---------------------------------------------------------------- boxes
TEST(Narrowphase, BoxBoxStackedFaceFaceFourPoints) {
    const auto a = place(Shape::box(Vec3(1, 1, 1)), Vec3::Zero(), Quat::Identity(), 0);
    for (const Quat& q : {Quat::Identity(), about(Vec3::UnitZ(), M_PI / 4)}) {
        const auto b = place(Shape::box(Vec3(0.5, 0.5, 0.5)), Vec3(0.1, 0, 0.73), q, 1);
        auto cs = run(a, b);
        ASSERT_EQ(cs.size(), 4u);
        expect_all(cs, Vec3::UnitZ(), 0.02, kTol);
        for (const Contact& c : cs) {
            const Vec3 local = q.conjugate() * (c.position - b.pose.position);
            EXPECT_NEAR(std::abs(local.x()), 0.25, kTol);
            EXPECT_NEAR(std::abs(local.y()), 0.25, kTol);
            EXPECT_NEAR(c.position.z(), 0.49, kTol);
        }
        cs = run(b, a);
        ASSERT_EQ(cs.size(), 4u);
        expect_all(cs, -Vec3::UnitZ(), 0.02, kTol);
    }
    // Equal boxes exactly stacked: the coincident faces give the 4 corners.
    const auto b = place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 0.99), Quat::Identity(), 1);
    const auto cs = run(a, b);
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    for (const Contact& c : cs) {
        EXPECT_NEAR(std::abs(c.position.x()), 0.5, kTol);
        EXPECT_NEAR(std::abs(c.position.y()), 0.5, kTol);
    }
}

TEST(Narrowphase, BoxOnLargerBoxSmallPenetrationIdsStable) {
    const auto a = place(Shape::box(Vec3(4, 4, 1)), Vec3::Zero(), Quat::Identity(), 3);
    const auto b0 = place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 0.99), Quat::Identity(), 4);
    const auto b1 = place(Shape::box(Vec3(1, 1, 1)), Vec3(0.001, -0.002, 0.989), about(Vec3(1, 1, 1), 1e-3), 4);
    const auto c0 = run(a, b0);
    const auto c1 = run(a, b1);
    ASSERT_EQ(c0.size(), 4u);
    ASSERT_EQ(c1.size(), 4u);
    std::set<std::uint64_t> i0, i1;
    for (const Contact& c : c0) i0.insert(c.id);
    for (const Contact& c : c1) i1.insert(c.id);
    EXPECT_EQ(i0.size(), 4u);  // different corners, different ids
    EXPECT_EQ(i0, i1);         // same corners after a small motion, same ids
}

TEST(Narrowphase, BoxBoxEdgeEdgeOnePoint) {
    const double s = std::sqrt(0.5);
    const auto a = place(Shape::box(Vec3(1, 1, 1)), Vec3::Zero(), about(Vec3::UnitX(), M_PI / 4));
    const auto b = place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 2 * s - 0.02), about(Vec3::UnitY(), M_PI / 4));
    auto cs = run(a, b);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.02, kTol);
    expect_vec(cs[0].normal, Vec3::UnitZ(), kTol);
    expect_vec(cs[0].position, Vec3(0, 0, s - 0.01), kTol);
    cs = run(b, a);
    ASSERT_EQ(cs.size(), 1u);
    expect_vec(cs[0].normal, -Vec3::UnitZ(), kTol);
}

TEST(Narrowphase, BoxBoxSeparatedAndSpeculative) {
    const auto a = place(Shape::box(Vec3(1, 1, 1)), Vec3::Zero());
    const auto b = place(Shape::box(Vec3(1, 1, 1)), Vec3(0.3, 0.2, 1.05));
    EXPECT_TRUE(run(a, b, 0.01).empty());
    const auto cs = run(a, b, 0.1);
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, Vec3::UnitZ(), -0.05, kTol);
}

TEST(Narrowphase, TiltedBoxOnBoxAndTiltedCylinderOnBox) {
    const auto base = place(Shape::box(Vec3(4, 4, 1)), Vec3::Zero());
    // Box rotated 0.5 rad about y: its lowest edge (along y) on the top face: 2 points.
    const Quat q = about(Vec3::UnitY(), 0.5);
    const double half = 0.5 * (std::cos(0.5) + std::sin(0.5));  // half height of a unit cube so rotated
    auto cs = run(base, place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 0.5 + half - 0.01), q));
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    EXPECT_NEAR(std::abs(cs[0].position.y()), 0.5, kTol);
    // Cylinder tilted 0.3 rad about x: one rim point.
    const double r = 0.3, h = 0.5, t = 0.3;
    const double c = 0.5 + h * std::cos(t) + r * std::sin(t) - 0.01;
    cs = run(base, place(Shape::cylinder(r, 2 * h), Vec3(0, 0, c), about(Vec3::UnitX(), t)));
    ASSERT_EQ(cs.size(), 1u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
}

// ---------------------------------------------------------------- capsules
TEST(Narrowphase, CapsuleCapsuleParallelAndCrossing) {
    const Quat along_x = about(Vec3::UnitY(), M_PI / 2);
    const auto a = place(Shape::capsule(0.2, 1.0), Vec3::Zero(), along_x);
    auto cs = run(a, place(Shape::capsule(0.2, 1.0), Vec3(0.3, 0, 0.39), along_x));
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    std::array<double, 2> xs{cs[0].position.x(), cs[1].position.x()};
    std::sort(xs.begin(), xs.end());
    EXPECT_NEAR(xs[0], -0.2, kTol);  // overlap of [-0.5, 0.5] and [-0.2, 0.8]
    EXPECT_NEAR(xs[1], 0.5, kTol);
    const Quat along_y = about(Vec3::UnitX(), M_PI / 2);
    cs = run(place(Shape::capsule(0.2, 1.0), Vec3(0, 0, 0.39), along_y), a);
    ASSERT_EQ(cs.size(), 1u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    expect_vec(cs[0].position, Vec3(0, 0, 0.195), kTol);
}

TEST(Narrowphase, CapsuleBoxLyingAndAcrossEdge) {
    const auto box = place(Shape::box(Vec3(4, 4, 1)), Vec3::Zero());
    const auto cap = place(Shape::capsule(0.2, 1.0), Vec3(0, 0, 0.69), about(Vec3::UnitY(), M_PI / 2));
    auto cs = run(cap, box);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    cs = run(box, cap);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    // Across the edge x = 1, z = 1 of a 2 m cube, axis orthogonal to the edge's bisector.
    const auto cube = place(Shape::box(Vec3(2, 2, 2)), Vec3::Zero());
    const Vec3 bis = Vec3(1, 0, 1).normalized();
    const Vec3 centre = Vec3(1, 0, 1) + bis * (0.2 - 0.01);
    const Quat q = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3(1, 0, -1).normalized());
    cs = run(place(Shape::capsule(0.2, 1.0), centre, q), cube);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_NEAR(cs[0].depth, 0.01, kSearchTol);
    expect_vec(cs[0].normal, -bis, kSearchTol);
}

// A box resting along a capsule longer than itself (a brick on a log): two
// supports at the ends of the box's face over the log, also slightly tilted
// (else one interior point and the box seesaws on the log).
TEST(Narrowphase, BoxAlongALongerCapsuleGetsTwoSupports) {
    const auto log = place(Shape::capsule(0.1, 0.6), Vec3::Zero(), about(Vec3::UnitX(), M_PI / 2));  // along y
    for (double tilt : {0.0, 0.05}) {
        const auto brick = place(Shape::box(Vec3(0.2, 0.3, 0.1)), Vec3(0, 0, 0.149), about(Vec3::UnitX(), tilt));
        const auto cs = run(log, brick, 0.05);
        ASSERT_EQ(cs.size(), 2u) << "tilt " << tilt;
        // At the two ends of the brick's bottom face (0.3 m long; tilted, it
        // is shifted by 0.05 sin(tilt) and its points lie between the
        // capsule's surface and the face): within 3 mm.
        const double shift = 0.05 * std::sin(tilt);
        EXPECT_NEAR(std::min(cs[0].position.y(), cs[1].position.y()), -0.15 * std::cos(tilt) + shift, 3e-3) << tilt;
        EXPECT_NEAR(std::max(cs[0].position.y(), cs[1].position.y()), 0.15 * std::cos(tilt) + shift, 3e-3) << tilt;
    }
    // Off-centre on a longer log (the face's part near one end of the
    // segment), level and tilted: still both ends.
    const auto long_log = place(Shape::capsule(0.1, 2.0), Vec3::Zero(), about(Vec3::UnitX(), M_PI / 2));
    for (double tilt : {0.0, 0.05}) {
        const auto brick = place(Shape::box(Vec3(0.2, 0.3, 0.1)), Vec3(0, 0.7, 0.149), about(Vec3::UnitX(), tilt));
        const auto cs = run(long_log, brick, 0.05);
        ASSERT_EQ(cs.size(), 2u) << "off-centre, tilt " << tilt;
        const double shift = 0.7 + 0.05 * std::sin(tilt);
        EXPECT_NEAR(std::min(cs[0].position.y(), cs[1].position.y()), shift - 0.15 * std::cos(tilt), 3e-3) << tilt;
        EXPECT_NEAR(std::max(cs[0].position.y(), cs[1].position.y()), shift + 0.15 * std::cos(tilt), 3e-3) << tilt;
    }
    // Level: the ends are found by bisection on the closest feature's normal
    // (1e-9 in its cosine: 5e-6 m here).
    const auto level = run(log, place(Shape::box(Vec3(0.2, 0.3, 0.1)), Vec3(0, 0, 0.149)), 0.05);
    ASSERT_EQ(level.size(), 2u);
    EXPECT_NEAR(std::abs(level[0].position.y()), 0.15, 1e-5);
    EXPECT_NEAR(std::abs(level[1].position.y()), 0.15, 1e-5);
}

TEST(Narrowphase, CapsuleCylinder) {
    const auto cyl = place(Shape::cylinder(1.0, 1.0), Vec3::Zero());
    auto cs = run(place(Shape::capsule(0.2, 1.0), Vec3(0, 0, 0.69), about(Vec3::UnitY(), M_PI / 2)), cyl);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    // Standing capsule against the cylinder's side.
    cs = run(cyl, place(Shape::capsule(0.2, 0.4), Vec3(1.19, 0, 0)));
    ASSERT_GE(cs.size(), 1u);
    expect_all(cs, Vec3::UnitX(), 0.01, kTol);
}

// ---------------------------------------------------------------- cylinders
TEST(Narrowphase, CylinderOnBoxStandingLyingAndBoxOnCylinder) {
    const auto box = place(Shape::box(Vec3(4, 4, 1)), Vec3::Zero());
    auto cs = run(box, place(Shape::cylinder(0.5, 1.0), Vec3(0.2, 0.1, 0.99)));
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    for (const Contact& c : cs) EXPECT_NEAR(std::hypot(c.position.x() - 0.2, c.position.y() - 0.1), 0.5, kTol);
    cs = run(place(Shape::cylinder(0.5, 1.0), Vec3(0, 0, 0.99), about(Vec3::UnitX(), M_PI / 2)), box);
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    // A small box on a big cylinder's cap: the box's 4 corners.
    const auto cyl = place(Shape::cylinder(2.0, 1.0), Vec3::Zero());
    cs = run(place(Shape::box(Vec3(0.5, 0.5, 0.5)), Vec3(0.3, 0, 0.74)), cyl);
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    for (const Contact& c : cs) EXPECT_NEAR(std::abs(c.position.y()), 0.25, kTol);
}

TEST(Narrowphase, CylinderCylinderStackedAndCrossing) {
    const auto a = place(Shape::cylinder(0.5, 1.0), Vec3::Zero());
    auto cs = run(a, place(Shape::cylinder(0.5, 1.0), Vec3(0, 0, 0.99)));
    ASSERT_EQ(cs.size(), 4u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
    // Lying across each other: 1 point on top of the lower one's side.
    const auto lx = place(Shape::cylinder(0.5, 2.0), Vec3::Zero(), about(Vec3::UnitY(), M_PI / 2));
    const auto ly = place(Shape::cylinder(0.5, 2.0), Vec3(0, 0, 0.99), about(Vec3::UnitX(), M_PI / 2));
    cs = run(ly, lx);
    ASSERT_EQ(cs.size(), 1u);
    expect_all(cs, -Vec3::UnitZ(), 0.01, kTol);
    expect_vec(cs[0].position, Vec3(0, 0, 0.495), kTol);
    // Parallel, lying side by side: 2 points.
    cs = run(lx, place(Shape::cylinder(0.5, 2.0), Vec3(0.5, 0, 0.99), about(Vec3::UnitY(), M_PI / 2)));
    ASSERT_EQ(cs.size(), 2u);
    expect_all(cs, Vec3::UnitZ(), 0.01, kTol);
}

// ---------------------------------------------------------------- all pairs
struct Kind {
    Shape shape;
    double half;  // half height along z when placed upright (identity)
};
std::vector<Kind> body_kinds() {
    return {{Shape::sphere(0.4), 0.4},
            {Shape::capsule(0.3, 0.6), 0.6},
            {Shape::box(Vec3(0.8, 0.6, 1.0)), 0.5},
            {Shape::cylinder(0.4, 0.8), 0.4}};
}

// B above A with a gap of 0.05: nothing with margin 0.01; with margin 0.1,
// only speculative contacts of depth -0.05 and normal +z (A to B), in both orders.
TEST(Narrowphase, EveryPairSeparatedAndSpeculativeBothOrders) {
    const auto kinds = body_kinds();
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        for (std::size_t j = 0; j < kinds.size(); ++j) {
            SCOPED_TRACE(testing::Message() << "pair " << i << " " << j);
            const auto a = place(kinds[i].shape, Vec3::Zero(), Quat::Identity(), 0);
            const auto b = place(kinds[j].shape, Vec3(0, 0, kinds[i].half + kinds[j].half + 0.05),
                                 Quat::Identity(), 1);
            EXPECT_TRUE(run(a, b, 0.01).empty());
            EXPECT_TRUE(run(b, a, 0.01).empty());
            const auto ab = run(a, b, 0.1);
            ASSERT_FALSE(ab.empty());
            expect_all(ab, Vec3::UnitZ(), -0.05, kTol);
            const auto ba = run(b, a, 0.1);
            ASSERT_EQ(ba.size(), ab.size());
            expect_all(ba, -Vec3::UnitZ(), -0.05, kTol);
            // And touching with 0.02 penetration.
            const auto c = place(kinds[j].shape, Vec3(0, 0, kinds[i].half + kinds[j].half - 0.02),
                                 Quat::Identity(), 1);
            const auto pen = run(a, c, 0.0);
            ASSERT_FALSE(pen.empty());
            expect_all(pen, Vec3::UnitZ(), 0.02, kTol);
        }
        SCOPED_TRACE(testing::Message() << "plane with " << i);
        const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), 9);
        const auto b = place(kinds[i].shape, Vec3(0, 0, kinds[i].half + 0.05));
        EXPECT_TRUE(run(plane, b, 0.01).empty());
        const auto cs = run(plane, b, 0.1);
        ASSERT_FALSE(cs.empty());
        expect_all(cs, Vec3::UnitZ(), -0.05, kTol);
    }
}

// Coincident centres and random poses: every output finite, normals unit.
TEST(Narrowphase, DegenerateAndRandomPosesAreFinite) {
    auto kinds = body_kinds();
    kinds.push_back({Shape::plane(Vec3::UnitZ(), 0.0), 0.0});
    std::srand(7);
    auto rnd = [] { return 2.0 * std::rand() / RAND_MAX - 1.0; };
    for (int trial = 0; trial < 200; ++trial) {
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            for (std::size_t j = 0; j < kinds.size(); ++j) {
                const bool coincident = trial == 0;
                const Quat qa = coincident ? Quat::Identity() : Quat(rnd(), rnd(), rnd(), rnd() + 1e-3).normalized();
                const Quat qb = coincident ? Quat::Identity() : Quat(rnd(), rnd(), rnd(), rnd() + 1e-3).normalized();
                const Vec3 pb = coincident ? Vec3(Vec3::Zero()) : Vec3(Vec3(rnd(), rnd(), rnd()) * 0.6);
                const auto cs = run(place(kinds[i].shape, Vec3::Zero(), qa), place(kinds[j].shape, pb, qb), 0.05);
                EXPECT_LE(cs.size(), 4u);
                for (const Contact& c : cs) {
                    ASSERT_TRUE(c.position.allFinite());
                    ASSERT_TRUE(std::isfinite(c.depth));
                    ASSERT_NEAR(c.normal.norm(), 1.0, 1e-9);
                    ASSERT_GE(c.depth, -0.05 - 1e-12);
                }
            }
        }
    }
}

TEST(Narrowphase, IdsDependOnShapesAndFeatures) {
    const auto plane = place(Shape::plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), 0);
    const auto b1 = place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 0.49), Quat::Identity(), 1);
    const auto b2 = place(Shape::box(Vec3(1, 1, 1)), Vec3(0, 0, 0.49), Quat::Identity(), 2);
    const auto moved = place(Shape::box(Vec3(1, 1, 1)), Vec3(0.01, 0, 0.488), about(Vec3::UnitZ(), 0.01), 1);
    std::set<std::uint64_t> s1, s2, sm;
    for (const Contact& c : run(b1, plane)) s1.insert(c.id);
    for (const Contact& c : run(b2, plane)) s2.insert(c.id);
    for (const Contact& c : run(moved, plane)) sm.insert(c.id);
    EXPECT_EQ(s1.size(), 4u);
    EXPECT_EQ(s1, sm);
    for (const std::uint64_t id : s2) EXPECT_EQ(s1.count(id), 0u);
}

}  // namespace
}  // namespace pivot::collision
