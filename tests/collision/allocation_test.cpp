// No heap allocation after warm-up: CollisionWorld::detect on a scene of
// every shape kind, counted by replacing the global operator new of this
// test program (left out under AddressSanitizer, which supplies its own).
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include <gtest/gtest.h>

#include "collision/collision_world.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define PIVOT_COLLISION_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PIVOT_COLLISION_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef PIVOT_COLLISION_COUNTS_ALLOCATIONS
#define PIVOT_COLLISION_COUNTS_ALLOCATIONS 1
#endif

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

#if PIVOT_COLLISION_COUNTS_ALLOCATIONS
void* operator new(std::size_t size) {
    if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace pivot::collision {
namespace {

TEST(CollisionWorld, NoAllocationAfterWarmUp) {
#if !PIVOT_COLLISION_COUNTS_ALLOCATIONS
    GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
#else
    CollisionWorld world;
    world.add_shape(Shape::plane(Vec3::UnitZ(), 0.0));
    const Shape kinds[4] = {Shape::sphere(0.3), Shape::capsule(0.2, 0.6), Shape::box(Vec3(0.6, 0.5, 0.4)),
                            Shape::cylinder(0.3, 0.5)};
    const int bodies = 200;
    for (int i = 0; i < bodies; ++i) {
        Shape s = kinds[i % 4];
        s.body = i;
        world.add_shape(s);
    }
    world.broadphase().set_excluded_body_pairs({{0, 1}, {5, 6}});
    std::mt19937 gen(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Pose> poses(bodies);
    for (int i = 0; i < bodies; ++i) {
        // A loose pile on a 10 x 10 grid, two layers: many touching pairs of every kind.
        poses[static_cast<std::size_t>(i)].position = Vec3((i % 10) * 0.55, ((i / 10) % 10) * 0.55, 0.25 + 0.5 * (i / 100));
        poses[static_cast<std::size_t>(i)].orientation = Quat(1.0, 0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen)).normalized();
    }
    CollisionSettings settings;
    settings.margin = 0.02;
    const std::size_t first = world.detect(poses, settings).size();
    EXPECT_GT(first, 100u);
    // After warm-up, going back and forth between two configurations (same
    // or fewer pairs and contacts than the buffers hold) allocates nothing.
    std::vector<Pose> moved = poses;
    for (Pose& p : moved) {
        p.position += Vec3(1e-4, -2e-4, 1e-4);
        p.orientation = (p.orientation * Quat(Eigen::AngleAxisd(1e-3, Vec3::UnitZ()))).normalized();
    }
    world.detect(moved, settings);  // warm-up of the moved configuration too
    allocations = 0;
    counting = true;
    for (int step = 0; step < 10; ++step) {
        world.detect(poses, settings);
        world.detect(moved, settings);
    }
    counting = false;
    EXPECT_EQ(allocations.load(), 0);
#endif
}

}  // namespace
}  // namespace pivot::collision
