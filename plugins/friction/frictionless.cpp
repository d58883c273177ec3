// pivot.friction.frictionless: only the host's normal row.
//
// Row 0 = contact.normal_row (findex cleared), direction (n, 0). No friction
// rows, no coupling, no impulse, no state, no parameters.
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

struct Frictionless {
    static constexpr const char* kId = "pivot.friction.frictionless";
    static constexpr uint32_t kMaxRows = 1;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = 0;

    static void write(RowWriter& out, const pivot_contact_point& c, const double*, const pivot_step_info&, double*,
                      double*, double*) {
        out.add(normal_row(c), unit_normal(c));
    }
};

const pivot_friction_functions kFunctions = friction_functions<Frictionless>();

}  // namespace

const pivot_plugin_descriptor kFrictionlessDescriptor =
    friction_descriptor(Frictionless::kId, "Frictionless contact", "the host's normal row only, no friction",
                        PIVOT_FRICTION_CAP_BOXED, nullptr, 0, &kFunctions);

}  // namespace pivot::friction
