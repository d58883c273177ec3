// The plugin ABI headers compile as C++ with -Wall -Wextra -Werror -pedantic,
// and their structs are trivially copyable standard-layout types (the host
// copies them with memcpy under the min(struct_size) rule).
#include <type_traits>

#include <gtest/gtest.h>

#include <pivot/plugin.h>
#include <pivot/plugin_element.h>
#include <pivot/plugin_friction.h>
#include <pivot/plugin_joint.h>
#include <pivot/plugin_solver.h>

template <class T>
constexpr bool is_c_struct = std::is_standard_layout_v<T> && std::is_trivially_copyable_v<T>;

TEST(AbiHeaders, StructsArePlainC) {
    EXPECT_TRUE(is_c_struct<pivot_host>);
    EXPECT_TRUE(is_c_struct<pivot_param_info>);
    EXPECT_TRUE(is_c_struct<pivot_plugin_descriptor>);
    EXPECT_TRUE(is_c_struct<pivot_plugin_library>);
    EXPECT_TRUE(is_c_struct<pivot_row>);
    EXPECT_TRUE(is_c_struct<pivot_element_functions>);
    EXPECT_TRUE(is_c_struct<pivot_joint_functions>);
    EXPECT_TRUE(is_c_struct<pivot_friction_functions>);
    EXPECT_TRUE(is_c_struct<pivot_contact_point>);
    EXPECT_TRUE(is_c_struct<pivot_solver_functions>);
    EXPECT_TRUE(is_c_struct<pivot_lcp_problem>);
    EXPECT_TRUE(is_c_struct<pivot_solve_report>);
}

// A function declared with PIVOT_PLUGIN_ENTRY has exactly the type the host
// resolves; a mismatch would be a compile error here.
PIVOT_PLUGIN_ENTRY {
    return host_abi_major == PIVOT_ABI_MAJOR && host_abi_minor <= PIVOT_ABI_MINOR ? nullptr : nullptr;
}
static_assert(std::is_same_v<decltype(&pivot_plugin_entry), pivot_plugin_entry_fn>);

TEST(AbiHeaders, EntryMacroDeclaresTheResolvedSymbol) {
    EXPECT_STREQ(PIVOT_PLUGIN_ENTRY_SYMBOL, "pivot_plugin_entry");
    const pivot_plugin_entry_fn entry = &pivot_plugin_entry;
    EXPECT_EQ(entry(PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR), nullptr);
}
