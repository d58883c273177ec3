// The step's memory bounds (WorldSettings::max_contact_row_values,
// max_assembled_values; docs/engine.md "Memory bounds"): no scene makes a
// step allocate without bound. Contacts whose rows would pass the first
// cap are dropped, in the collision's order, and counted; an island whose
// matrix would pass the second is solved by velocity PGS on its factored
// form whatever the solver, or, with friction coupling blocks (no factored
// form), not solved and counted as a failure. The scenes are small; the
// caps are set small to reach them (the defaults leave real-time scenes
// far below: see the settings' comment).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"
#include "lcp/lcp_problem.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

using test::add_row_of_spheres;  // 45 rows in one island (first_party_plugins.hpp)

bool same_contact(const ContactReport& a, const ContactReport& b) {
    return a.body1 == b.body1 && a.body2 == b.body2 && a.point == b.point && a.normal == b.normal;
}

// Uncapped, the first step has 15 contacts. A cap of 500 values holds
// some of them (a contact here takes 3 rows x 12 values per moving body,
// plus 36 for its point's Jacobian: 72 on the ground, 144 between two
// balls; all 15 take 1584): the first ones in the collision's order,
// exactly those of the uncapped step, up to the first that does not fit;
// that one and all after it are counted as dropped.
// With a cap of 0 every contact is dropped and the balls fall through the
// ground, freely: what a dropped contact means.
TEST(MemoryBounds, ContactsPastTheRowValueCapAreDroppedInTheCollisionsOrder) {
    World uncapped(registry(), WorldSettings{});
    add_row_of_spheres(uncapped);
    uncapped.step();
    const std::vector<ContactReport> all = uncapped.contacts();
    ASSERT_EQ(all.size(), 15u);
    EXPECT_EQ(uncapped.statistics().contacts_dropped, 0u);

    WorldSettings settings;
    settings.max_contact_row_values = 500;
    World capped(registry(), settings);
    add_row_of_spheres(capped);
    capped.step();
    const std::vector<ContactReport>& kept = capped.contacts();
    EXPECT_GE(kept.size(), 3u) << "500 values hold at least 3 contacts of 144";
    EXPECT_LE(kept.size(), 6u) << "and at most 6 of 72";
    EXPECT_EQ(kept.size() + capped.statistics().contacts_dropped, all.size());
    for (size_t k = 0; k < kept.size(); ++k) EXPECT_TRUE(same_contact(kept[k], all[k])) << "contact " << k;

    settings.max_contact_row_values = 0;
    World none(registry(), settings);
    add_row_of_spheres(none);
    for (int i = 0; i < 10; ++i) {
        none.step();
        EXPECT_TRUE(none.contacts().empty());
        EXPECT_EQ(none.statistics().contacts_dropped, 15u) << "step " << i;
    }
    // 10 free steps of h = 1 ms from rest (semi-implicit Euler): z drops by
    // g h^2 (1 + 2 + ... + 10) = 55 g h^2.
    EXPECT_NEAR(none.position(0)[2], 0.5 - 55 * 9.81 * 1e-6, 1e-12);
}

// With Dantzig named, the island of 45 rows is a dense matrix of 2025
// values. Capped at 2000, velocity PGS solves it on the factored form (no
// matrix handed over) and the balls rest as Dantzig keeps them (within
// 1 mm after 1 s, the bound of the large-island test of
// solver_selection_test.cpp); at 2025 Dantzig keeps it.
TEST(MemoryBounds, AnIslandTooLargeToAssembleGoesToVelocityPgsWhateverTheSolver) {
    for (const size_t cap : {size_t{2000}, size_t{2025}}) {
        WorldSettings settings;
        settings.timestep = 1.0 / 60.0;
        settings.direct_islands = settings.newton_islands = false;
        settings.large_island_rows = 0;
        settings.large_island_sweeps = 5000;
        settings.max_assembled_values = cap;
        World world(registry(), settings);
        add_row_of_spheres(world);
        std::vector<size_t> dense_sizes;
        world.set_lcp_observer([&](uint32_t, const LcpProblem& p) { dense_sizes.push_back(p.dense.size()); });
        for (int i = 0; i < 60; ++i) {
            world.step();
            ASSERT_EQ(world.statistics().rows, 45u);
            EXPECT_EQ(world.statistics().large_islands, cap < 2025 ? 1u : 0u) << "cap " << cap << ", step " << i;
            EXPECT_EQ(world.statistics().solver_failures, 0u) << "cap " << cap << ", step " << i;
        }
        for (const size_t size : dense_sizes) EXPECT_EQ(size, cap < 2025 ? 0u : 2025u) << "cap " << cap;
        for (uint32_t k = 0; k < 8; ++k) {
            EXPECT_NEAR(world.position(k)[2], 0.5, 1e-3) << "cap " << cap << ", ball " << k;
        }
    }
}

// The polyhedral cone (pivot.friction.cone) gives each contact a coupling
// block: no factored form, so velocity PGS cannot take the island. Past the
// cap it is not solved: a failure each step, no impulse, no matrix built.
TEST(MemoryBounds, ACoupledIslandTooLargeToAssembleIsAFailureNotAnAllocation) {
    WorldSettings settings;
    settings.solver = {"pivot.solver.lemke", nlohmann::json::object()};
    settings.direct_islands = settings.newton_islands = false;
    settings.large_island_rows = 0;
    settings.max_assembled_values = 100;
    World world(registry(), settings);
    MaterialDescription cone;
    cone.name = "cone";
    cone.friction_model = "pivot.friction.cone";
    world.add_material(cone);
    add_row_of_spheres(world, "cone");
    bool observed = false;
    world.set_lcp_observer([&](uint32_t, const LcpProblem&) { observed = true; });
    world.step();
    EXPECT_FALSE(observed) << "the island is not handed to a solver";
    EXPECT_EQ(world.statistics().islands, 1u);
    EXPECT_EQ(world.statistics().solver_failures, 1u);
    EXPECT_EQ(world.statistics().large_islands, 0u);
    ASSERT_FALSE(world.contacts().empty());
    for (const ContactReport& c : world.contacts()) EXPECT_EQ(c.normal_force, 0.0);
}

}  // namespace
}  // namespace pivot
