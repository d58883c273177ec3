/* Compiled with -std=c99 -pedantic-errors -Werror: the plugin ABI is C. The
   checks below are the layout facts a C plugin and the C++ host must agree
   on; a failure prints which and exits non-zero. */
#include <stdio.h>

#include "pivot/plugin.h"
#include "pivot/plugin_element.h"
#include "pivot/plugin_friction.h"
#include "pivot/plugin_joint.h"
#include "pivot/plugin_solver.h"

static int failures = 0;

static void expect(int condition, const char* what) {
    if (!condition) {
        fprintf(stderr, "ABI layout check failed: %s\n", what);
        ++failures;
    }
}

int main(void) {
    /* Every growable struct starts with its size. */
    expect(offsetof(pivot_plugin_library, struct_size) == 0, "library struct_size first");
    expect(offsetof(pivot_plugin_descriptor, struct_size) == 0, "descriptor struct_size first");
    expect(offsetof(pivot_param_info, struct_size) == 0, "param_info struct_size first");
    expect(offsetof(pivot_element_functions, struct_size) == 0, "element functions struct_size first");
    expect(offsetof(pivot_joint_functions, struct_size) == 0, "joint functions struct_size first");
    expect(offsetof(pivot_friction_functions, struct_size) == 0, "friction functions struct_size first");
    expect(offsetof(pivot_solver_functions, struct_size) == 0, "solver functions struct_size first");
    expect(offsetof(pivot_lcp_problem, struct_size) == 0, "problem struct_size first");
    /* The frozen per-row structs have fixed sizes (x86-64 / aarch64 LP64). */
    expect(sizeof(pivot_row) == 6 * sizeof(double) + 8, "pivot_row is 56 bytes");
    expect(sizeof(pivot_contact_block) == 16, "pivot_contact_block is 16 bytes");
    expect(sizeof(pivot_contact_motion) == 64, "pivot_contact_motion is 64 bytes (frozen, ABI 1.8)");
    expect(PIVOT_ABI_MAJOR == 1u, "this test is for ABI major 1");
    if (failures == 0) printf("plugin ABI %u.%u headers compile as C99\n", PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR);
    return failures == 0 ? 0 : 1;
}
