// Broadphase: exactly the overlapping AABB pairs (brute force reference),
// sorted; planes paired with every body shape; same-body and excluded pairs
// skipped; CollisionWorld end to end.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "collision/broadphase.hpp"
#include "collision/collision_world.hpp"
#include "collision/narrowphase_internal.hpp"
#include "test_support.hpp"

namespace pivot::collision {
namespace {

std::vector<ShapeInstance> random_boxes(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> pos(-10.0, 10.0);
    std::uniform_real_distribution<double> size(0.1, 1.5);
    std::normal_distribution<double> quat(0.0, 1.0);
    std::vector<ShapeInstance> out;
    for (std::size_t i = 0; i < n; ++i) {
        Shape s = Shape::box(Vec3(size(gen), size(gen), size(gen)));
        s.body = static_cast<std::int32_t>(i);
        Quat q(quat(gen), quat(gen), quat(gen), quat(gen));
        out.push_back(test::place(s, Vec3(pos(gen), pos(gen), pos(gen)), q, static_cast<std::uint32_t>(i)));
    }
    return out;
}

TEST(Broadphase, ThousandRandomBoxesMatchBruteForce) {
    const auto shapes = random_boxes(1000, 42);
    Broadphase bp;
    const double margin = 0.05;
    const auto& pairs = bp.find_pairs(shapes, margin);
    std::vector<ShapePair> brute;
    for (std::uint32_t i = 0; i < shapes.size(); ++i)
        for (std::uint32_t j = i + 1; j < shapes.size(); ++j)
            if (compute_aabb(shapes[i], margin).overlaps(compute_aabb(shapes[j], margin))) brute.push_back({i, j});
    EXPECT_GT(brute.size(), 100u);  // the test is not vacuous
    EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
    EXPECT_EQ(pairs, brute);
}

TEST(Broadphase, AabbContainsTheShape) {
    // Support points in the axis directions lie within the (marginless) box, and touch it.
    const std::vector<Shape> shapes = {Shape::sphere(0.3), Shape::box(Vec3(1, 0.5, 0.2)), Shape::capsule(0.2, 1.0),
                                       Shape::cylinder(0.4, 0.7)};
    const Quat q = test::about(Vec3(1, -2, 0.5), 0.9);
    for (const Shape& s : shapes) {
        const auto inst = test::place(s, Vec3(1, 2, 3), q);
        const Aabb box = compute_aabb(inst, 0.0);
        for (int k = 0; k < 3; ++k) {
            // Tight within 1e-12: both are closed forms of the same extents.
            Vec3 e = Vec3::Zero();
            e[k] = 1.0;
            EXPECT_NEAR(detail::support(inst, e)[k], box.max[k], 1e-12);
            EXPECT_NEAR(detail::support(inst, -e)[k], box.min[k], 1e-12);
        }
    }
}

bool skip_bodies_0_2(std::int32_t a, std::int32_t b, void*) { return (a == 0 && b == 2) || (a == 2 && b == 0); }

TEST(Broadphase, PlanesSameBodyExclusionsAndFilter) {
    std::vector<ShapeInstance> shapes;
    auto add = [&](Shape s, std::int32_t body, const Vec3& p) {
        s.body = body;
        shapes.push_back(test::place(s, p, Quat::Identity(), static_cast<std::uint32_t>(shapes.size())));
    };
    add(Shape::sphere(1.0), 0, Vec3(0, 0, 0));         // 0
    add(Shape::sphere(1.0), 0, Vec3(0.5, 0, 0));       // 1 same body as 0
    add(Shape::sphere(1.0), 1, Vec3(1, 0, 0));         // 2
    add(Shape::plane(Vec3::UnitZ(), -100.0), kStaticBody, Vec3::Zero());  // 3: far below everything: no pairs
    add(Shape::box(Vec3(1, 1, 1)), kStaticBody, Vec3(0, 0, 1));           // 4 static
    add(Shape::sphere(1.0), 2, Vec3(-1, 0, 0));        // 5
    Broadphase bp;
    auto pairs = bp.find_pairs(shapes, 0.0);
    const std::vector<ShapePair> expected = {{0, 2}, {0, 4}, {0, 5}, {1, 2}, {1, 4},
                                             {1, 5}, {2, 4}, {2, 5}, {4, 5}};  // 2 and 5 touch at x = 0 (closed boxes)
    EXPECT_EQ(pairs, expected);
    // A plane pairs with the shapes whose box (grown by the margin) reaches
    // its solid half-space z <= -100: with a margin of 99.5 the spheres' boxes
    // reach z = -100.5; the static box (same static body) is skipped.
    pairs = bp.find_pairs(shapes, 99.5);
    for (const ShapePair& with_plane : {ShapePair{0, 3}, ShapePair{1, 3}, ShapePair{2, 3}, ShapePair{3, 5}}) {
        EXPECT_NE(std::find(pairs.begin(), pairs.end(), with_plane), pairs.end());
    }
    EXPECT_EQ(std::find(pairs.begin(), pairs.end(), ShapePair{3, 4}), pairs.end());
    bp.set_excluded_body_pairs({{1, 0}});
    bp.set_filter(skip_bodies_0_2, nullptr);
    pairs = bp.find_pairs(shapes, 0.0);
    const std::vector<ShapePair> filtered = {{0, 4}, {1, 4}, {2, 4}, {2, 5}, {4, 5}};
    EXPECT_EQ(pairs, filtered);
}

// Every pair of shapes of different bodies whose boxes overlap, in order.
std::vector<ShapePair> brute_force(const std::vector<ShapeInstance>& shapes, double margin) {
    std::vector<ShapePair> out;
    for (std::uint32_t i = 0; i < shapes.size(); ++i) {
        for (std::uint32_t j = i + 1; j < shapes.size(); ++j) {
            if (shapes[i].shape.body == shapes[j].shape.body) continue;
            if (compute_aabb(shapes[i], margin).overlaps(compute_aabb(shapes[j], margin))) out.push_back({i, j});
        }
    }
    return out;
}

// The harness's S3 pile: 1000 spheres (r = 5 cm) packed in a 1 m box with
// four static walls, jittered so that neighbours overlap, touch or miss.
std::vector<ShapeInstance> sphere_pile(unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> jitter(-0.004, 0.004);
    std::vector<ShapeInstance> out;
    const auto add = [&](Shape s, std::int32_t body, const Vec3& p) {
        s.body = body;
        out.push_back(test::place(s, p, Quat::Identity(), static_cast<std::uint32_t>(out.size())));
    };
    for (int i = 0; i < 1000; ++i) {
        const Vec3 p((i % 10 - 4.5) * 0.098, (i / 10 % 10 - 4.5) * 0.098, 0.05 + (i / 100) * 0.098);
        add(Shape::sphere(0.05), i, p + Vec3(jitter(gen), jitter(gen), jitter(gen)));
    }
    add(Shape::box(Vec3(0.1, 1.2, 2.0)), kStaticBody, Vec3(0.55, 0, 1));
    add(Shape::box(Vec3(0.1, 1.2, 2.0)), kStaticBody, Vec3(-0.55, 0, 1));
    add(Shape::box(Vec3(1.2, 0.1, 2.0)), kStaticBody, Vec3(0, 0.55, 1));
    add(Shape::box(Vec3(1.2, 0.1, 2.0)), kStaticBody, Vec3(0, -0.55, 1));
    return out;
}

TEST(Broadphase, GridFindsThePairsOfASpherePile) {
    // The grid (1000 similar spheres, 4 large walls) gives exactly the
    // overlapping pairs, as the sweep does.
    const auto shapes = sphere_pile(7);
    const double margin = 0.002;
    Broadphase grid;
    const std::vector<ShapePair> by_grid = grid.find_pairs(shapes, margin);
    EXPECT_TRUE(grid.used_grid());
    const auto expected = brute_force(shapes, margin);
    EXPECT_GT(expected.size(), 3000u);  // ~6 neighbours a sphere and the walls: not vacuous
    EXPECT_EQ(by_grid, expected);
    Broadphase sweep;
    sweep.set_method(Broadphase::Method::sweep);
    EXPECT_EQ(sweep.find_pairs(shapes, margin), expected);
    EXPECT_FALSE(sweep.used_grid());
}

TEST(Broadphase, GridFindsTouchingBoxesAcrossCells) {
    // Unit cubes exactly touching on a lattice (closed boxes: every face,
    // edge and corner neighbour is a pair, 26 for an inner cube), at the
    // origin and a million metres from it (where the cells' arithmetic
    // rounds); and rotated boxes of mixed sizes with a few large ones.
    for (const double offset : {0.0, 1.0e6 + 0.37}) {
        std::vector<ShapeInstance> shapes;
        for (int i = 0; i < 216; ++i) {
            Shape s = Shape::box(Vec3(1, 1, 1));
            s.body = i;
            const Vec3 p(offset + i % 6, offset + i / 6 % 6, offset + i / 36);
            shapes.push_back(test::place(s, p, Quat::Identity(), static_cast<std::uint32_t>(i)));
        }
        Broadphase bp;
        const auto& pairs = bp.find_pairs(shapes, 0.0);
        EXPECT_TRUE(bp.used_grid());
        const auto expected = brute_force(shapes, 0.0);
        // 3 * 6*6*5 faces + 6 * 6*5*5 edges + 4 * 5*5*5 corners.
        EXPECT_EQ(expected.size(), 540u + 900u + 500u) << "offset " << offset;
        EXPECT_EQ(pairs, expected) << "offset " << offset;
    }
    for (const unsigned seed : {1u, 2u, 3u}) {
        auto shapes = random_boxes(1000, seed);
        for (std::size_t i = 0; i < 40; ++i) {  // one in 25 large: still the grid
            shapes[i * 25].shape.size = Vec3(8.0, 0.5, 3.0);
        }
        Broadphase bp;
        const auto& pairs = bp.find_pairs(shapes, 0.05);
        EXPECT_TRUE(bp.used_grid()) << "seed " << seed;
        EXPECT_EQ(pairs, brute_force(shapes, 0.05)) << "seed " << seed;
    }
}

TEST(Broadphase, GridGivesWayToTheSweep) {
    // Where the grid would not pay or cannot hold the shapes, the sweep
    // answers, with the same pairs: too few shapes, too many large ones,
    // shapes spread thinly (more than 8 cells a shape), a non-finite box.
    const auto check = [](const std::vector<ShapeInstance>& shapes, const char* what) {
        Broadphase bp;
        const auto& pairs = bp.find_pairs(shapes, 0.05);
        EXPECT_FALSE(bp.used_grid()) << what;
        std::vector<ShapeInstance> finite;
        for (const ShapeInstance& s : shapes) {
            if (s.pose.position.allFinite()) finite.push_back(s);
        }
        std::vector<ShapePair> expected;
        for (const ShapePair& p : brute_force(finite, 0.05)) {
            expected.push_back({finite[p.a].index, finite[p.b].index});
        }
        EXPECT_EQ(pairs, expected) << what;
    };
    check(random_boxes(Broadphase::kGridMinimum - 1, 4), "too few");
    auto many_large = random_boxes(400, 5);
    for (std::size_t i = 0; i < 100; ++i) many_large[i * 4].shape.size = Vec3(9.0, 9.0, 9.0);
    check(many_large, "many large");
    auto spread = random_boxes(400, 6);
    for (std::size_t i = 0; i < 200; ++i) spread[i].pose.position.x() += 1.0e9;
    check(spread, "spread");
    auto with_nan = random_boxes(400, 7);
    with_nan[17].pose.position.y() = std::nan("");
    check(with_nan, "NaN");
}

TEST(CollisionWorld, BoxesOnPlaneEndToEnd) {
    CollisionWorld world;
    world.add_shape(Shape::plane(Vec3::UnitZ(), 0.0));
    Shape box = Shape::box(Vec3(1, 1, 1));
    box.body = 0;
    world.add_shape(box);
    Shape ball = Shape::sphere(0.25);
    ball.body = 1;
    ball.local.position = Vec3(0, 0, 0.1);  // offset from its body
    world.add_shape(ball);
    std::vector<Pose> poses(2);
    poses[0].position = Vec3(0, 0, 0.49);
    poses[1].position = Vec3(0, 0, 0.99 + 0.15 - 0.1);  // ball centre 1.14, 0.15 above the box top 0.99
    CollisionSettings settings;
    settings.margin = 0.0;
    const auto& contacts = world.detect(poses, settings);
    // 4 box-plane corners, 1 box-ball.
    ASSERT_EQ(contacts.size(), 5u);
    int plane_box = 0, box_ball = 0;
    for (const Contact& c : contacts.contacts) {
        if (c.shape_a == 0 && c.shape_b == 1) {
            ++plane_box;
            EXPECT_NEAR(c.depth, 0.01, 1e-9);
            EXPECT_NEAR(c.normal.z(), 1.0, 1e-9);
        }
        if (c.shape_a == 1 && c.shape_b == 2) {
            ++box_ball;
            EXPECT_NEAR(c.depth, 0.25 - 0.15, 1e-9);
            EXPECT_NEAR(c.normal.z(), 1.0, 1e-9);
        }
    }
    EXPECT_EQ(plane_box, 4);
    EXPECT_EQ(box_ball, 1);
}

}  // namespace
}  // namespace pivot::collision
