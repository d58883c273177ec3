// The registry: loading files and folders, lookup by id and short name,
// duplicate handling, and that loading the same file twice is a no-op.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "test_plugins.hpp"

namespace pivot {
namespace {

TEST(Registry, LoadsEveryGoodTestPluginFromItsFolder) {
    PluginRegistry registry;
    LoadReport report = registry.load(test::good_plugin_dir());
    ASSERT_TRUE(report.ok()) << (report.problems.empty() ? "" : report.problems.front());
    // Four libraries, seven plugins: the friction library holds three, the
    // solver library two.
    EXPECT_EQ(report.plugins_loaded, 7u);
    const char* ids[] = {"test.element.point_mass",    "test.joint.ball",       "test.friction.box",
                         "test.friction.frictionless", "test.friction.echo",    "test.solver.pgs_dense",
                         "test.solver.pgs_dense_fixed_bounds"};
    for (const char* id : ids) {
        const PluginRecord* p = registry.find(id);
        ASSERT_NE(p, nullptr) << id;
        EXPECT_EQ(p->abi_major, PIVOT_ABI_MAJOR);
        EXPECT_FALSE(p->file.empty());
        EXPECT_EQ(p->version, "1.0.0");
    }
    // Ordered by id.
    auto all = registry.plugins();
    ASSERT_EQ(all.size(), 7u);
    for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1]->id, all[i]->id);
}

TEST(Registry, KindsAndSchemasAreReadFromTheDescriptors) {
    PluginRegistry registry;
    ASSERT_TRUE(registry.load(test::good_plugin_dir()).ok());
    const PluginRecord& box = registry.require(PIVOT_KIND_FRICTION, "test.friction.box");
    EXPECT_EQ(box.kind, PIVOT_KIND_FRICTION);
    ASSERT_EQ(box.params.size(), 1u);
    EXPECT_EQ(box.params[0].name, "mu");
    EXPECT_DOUBLE_EQ(box.params[0].default_value, 0.5);
    EXPECT_EQ(box.friction.max_rows_per_contact, 3u);
    EXPECT_EQ(box.friction.state_per_contact, 1u);

    const PluginRecord& mass = registry.require(PIVOT_KIND_ELEMENT, "test.element.point_mass");
    EXPECT_EQ(mass.item_param_count(), 1u);
    EXPECT_EQ(mass.instance_param_count(), 0u);
    EXPECT_EQ(mass.element.coords_per_node, 3u);
}

TEST(Registry, LoadingTheSameFileTwiceIsANoOp) {
    PluginRegistry registry;
    ASSERT_TRUE(registry.load(test::good_plugin("test_solver_pgs_dense")).ok());
    LoadReport again = registry.load(test::good_plugin("test_solver_pgs_dense"));
    EXPECT_TRUE(again.ok());
    EXPECT_EQ(again.plugins_loaded, 0u);
    EXPECT_EQ(registry.plugins().size(), 2u);  // the library's two solvers
}

TEST(Registry, RequireNamesTheKindAndWhatIsLoaded) {
    PluginRegistry registry;
    ASSERT_TRUE(registry.load(test::good_plugin_dir()).ok());
    try {
        registry.require(PIVOT_KIND_SOLVER, "lemke");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unknown solver plugin 'lemke'"), std::string::npos) << what;
        EXPECT_NE(what.find("test.solver.pgs_dense"), std::string::npos) << what;
    }
    try {
        registry.require(PIVOT_KIND_SOLVER, "test.joint.ball");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("is a joint plugin, not a solver plugin"), std::string::npos) << e.what();
    }
}

TEST(Registry, MissingPathIsAProblemNotACrash) {
    PluginRegistry registry;
    LoadReport report = registry.load("/nonexistent/pivot/plugins");
    ASSERT_EQ(report.problems.size(), 1u);
    EXPECT_NE(report.problems[0].find("'/nonexistent/pivot/plugins': no such file or folder"), std::string::npos);
}

}  // namespace
}  // namespace pivot
