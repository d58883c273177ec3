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
