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
        if (!GetParam().empty() && registry().find(GetParam()) == nullptr) GTEST_SKIP() << GetParam() << " is not built";
    }
};

// At 60 Hz the peer harness's S1 links (0.1 kg, thin) are too stiff for the
// step: the joints' geometric stiffness and the position projection run
// (docs/engine.md "Stable steps at 60 Hz"), and must not allocate either.
void build_thin_chain(World& world, int links) {
    test::add_swinging_chain(world, links, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
}

void expect_no_allocation(const std::string& solver, double h, void (*build)(World&, int)) {
    WorldSettings settings;
    settings.timestep = h;
    if (!solver.empty()) {  // "": the engine's defaults
        settings.solver = {solver, nlohmann::json::object()};
        settings.direct_islands = false;  // the solver under test takes every island
    }
    World world(registry(), settings);
    build(world, 10);
    world.step();  // the first step sizes the scratch and the solvers' workspaces
    {
        test::AllocationWindow window;
        for (int i = 0; i < 200; ++i) world.step();
    }
    EXPECT_EQ(test::cxx_allocations.load(), 0) << "operator new calls in 200 steps with " << solver << ", h " << h;
    EXPECT_EQ(test::c_allocations.load(), 0) << "C allocations in 200 steps with " << solver << ", h " << h;
    EXPECT_EQ(world.statistics().solver_failures, 0u);
}

// An ANCF cable of 4 elements pinned to the world, a 2 kg body pinned at
// its other end.
void build_cable_with_load(World& world) {
    BodyDescription load;
    load.name = "load";
    load.mass = 2.0;
    load.inertia = {0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01};
    load.position = {1.1, 0, 0};
    world.add_body(load);
    CableDescription cable;
    cable.name = "cable";
    cable.end = {1, 0, 0};
    cable.elements = 4;
    cable.youngs_modulus = 1e8;
    cable.attach.push_back({0, "world", "spherical"});
    cable.attach.push_back({-1, "load", "spherical"});
    world.add_cable(cable);
}

// The GSSSS step (docs/engine.md "Integrators") allocates nothing after its
// first step either: its matrices, the Newton solve and the world's view
// are sized when it is made. A chain of bodies (plain and projected at
// velocity level) and a cable with a load.
TEST(GssssStep, NoHeapAllocationAfterWarmUp) {
    if (!PIVOT_COUNTS_ALLOCATIONS) GTEST_SKIP() << "AddressSanitizer replaces operator new; counted in normal builds";
    for (int which = 0; which < 3; ++which) {
        WorldSettings settings;
        settings.timestep = 1e-3;
        settings.integrator = Integrator::gssss;
        if (which == 1) {
            settings.gssss.parameters = gssss_generalized_alpha(0.8);
            settings.gssss.level = ConstraintLevel::velocity;
            settings.gssss.stabilization = ConstraintStabilization::projection;
        }
        World world(registry(), settings);
        if (which < 2) {
            build_chain(world, 5);
        } else {
            build_cable_with_load(world);
        }
        world.step();
        {
            test::AllocationWindow window;
            for (int i = 0; i < 100; ++i) world.step();
        }
        const char* what[] = {"chain", "chain, projected", "cable"};
        EXPECT_EQ(test::cxx_allocations.load(), 0) << "operator new calls in 100 GSSSS steps, " << what[which];
        EXPECT_EQ(test::c_allocations.load(), 0) << "C allocations in 100 GSSSS steps, " << what[which];
    }
}

TEST_P(StepBySolver, NoHeapAllocationAfterWarmUp) {
    if (!PIVOT_COUNTS_ALLOCATIONS) GTEST_SKIP() << "AddressSanitizer replaces operator new; counted in normal builds";
    expect_no_allocation(GetParam(), 1e-3, build_chain);
}

TEST_P(StepBySolver, NoHeapAllocationAfterWarmUpWithStiffnessAndProjection) {
    if (!PIVOT_COUNTS_ALLOCATIONS) GTEST_SKIP() << "AddressSanitizer replaces operator new; counted in normal builds";
    expect_no_allocation(GetParam(), 1.0 / 60.0, build_thin_chain);
}

TEST_P(StepBySolver, IdenticalWorldsStayBitwiseIdentical) {
    for (const double h : {1e-3, 1.0 / 60.0}) {
        WorldSettings settings;
        settings.timestep = h;
        if (!GetParam().empty()) {
            settings.solver = {GetParam(), nlohmann::json::object()};
            settings.direct_islands = false;
        }
        World a(registry(), settings);
        World b(registry(), settings);
        (h == 1e-3 ? build_chain : build_thin_chain)(a, 6);
        (h == 1e-3 ? build_chain : build_thin_chain)(b, 6);
        for (int i = 0; i < 300; ++i) {
            a.step();
            b.step();
        }
        EXPECT_EQ(a.state().q, b.state().q) << "h " << h;
        EXPECT_EQ(a.state().v, b.state().v) << "h " << h;
    }
}

INSTANTIATE_TEST_SUITE_P(Solvers, StepBySolver,
                         ::testing::Values("pivot.solver.lemke", "pivot.solver.dantzig", "pivot.solver.pgs",
                                           "pivot.solver.direct", ""),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             return p.param.empty() ? std::string("defaults") : p.param.substr(p.param.rfind('.') + 1);
                         });

}  // namespace
}  // namespace pivot
