// A step makes no heap allocation after the first one (the first sizes the
// scratch and, through the ABI's reserve(), every solver's workspace,
// fallbacks included): neither operator new nor the C allocator
// (tests/support/allocation_counter.hpp). Also: two identical worlds stepped
// the same way stay bitwise identical (determinism).
#include <cmath>

#include <gtest/gtest.h>

#include "allocation_counter.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// A chain of `links` bodies hanging from the world by spherical joints,
// released from a horizontal pose so that it swings.
void build_chain(World& world, int links) {
    test::add_swinging_chain(world, links, 0.2, 0.5, {1e-3, 0, 0, 0, 2e-3, 0, 0, 0, 2e-3});
}

class StepBySolver : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (registry().find(GetParam()) == nullptr) GTEST_SKIP() << GetParam() << " is not built";
    }
};

TEST_P(StepBySolver, NoHeapAllocationAfterWarmUp) {
    if (!PIVOT_COUNTS_ALLOCATIONS) GTEST_SKIP() << "AddressSanitizer replaces operator new; counted in normal builds";
    WorldSettings settings;
    settings.solver = {GetParam(), nlohmann::json::object()};
    World world(registry(), settings);
    build_chain(world, 10);
    world.step();  // the first step sizes the scratch and the solvers' workspaces
    {
        test::AllocationWindow window;
        for (int i = 0; i < 200; ++i) world.step();
    }
    EXPECT_EQ(test::cxx_allocations.load(), 0) << "operator new calls in 200 steps with " << GetParam();
    EXPECT_EQ(test::c_allocations.load(), 0) << "C allocations in 200 steps with " << GetParam();
    EXPECT_EQ(world.statistics().solver_failures, 0u);
}

TEST_P(StepBySolver, IdenticalWorldsStayBitwiseIdentical) {
    WorldSettings settings;
    settings.solver = {GetParam(), nlohmann::json::object()};
    World a(registry(), settings);
    World b(registry(), settings);
    build_chain(a, 6);
    build_chain(b, 6);
    for (int i = 0; i < 300; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.state().q, b.state().q);
    EXPECT_EQ(a.state().v, b.state().v);
}

INSTANTIATE_TEST_SUITE_P(Solvers, StepBySolver,
                         ::testing::Values("pivot.solver.lemke", "pivot.solver.dantzig", "pivot.solver.pgs"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             return p.param.substr(p.param.rfind('.') + 1);
                         });

}  // namespace
}  // namespace pivot
