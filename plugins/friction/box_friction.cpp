// pivot.friction.box: the Coulomb pyramid of a boxed MLCP with friction index
// (seed000 2.11, "box friction", eq. 6.45-6.55; the ODE friction index).
//
// Rows:
//   0  the host's normal row, direction (n, 0)
//   1  friction along t1: bounds [-mu, mu] x |f_0| (findex 0), direction (t1, 0)
//   2  friction along t2: bounds [-mu, mu] x |f_0| (findex 0), direction (t2, 0)
// Friction rows: violation 0, target velocity 0, compliance 0, damping 0,
// flag NO_STABILIZATION (velocity-level rows).
// t1 follows the sliding direction when |u_t| > slip_threshold (see
// friction_common.hpp), so a sliding contact gets the force mu f_n exactly
// against the sliding direction whatever the host's tangent frame; a sticking
// contact uses the host's frame and the square |f_1|, |f_2| <= mu f_n (the
// pyramid: the force can reach sqrt(2) mu f_n in a corner while sticking).
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

struct Box {
    static constexpr const char* kId = "pivot.friction.box";
    static constexpr uint32_t kMaxRows = 3;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = 2;

    static void write(RowWriter& out, const pivot_contact_point& c, const double* p, const pivot_step_info&, double*,
                      double*, double*) {
        box_rows(out, c, p[0], p[1]);
    }
};

const pivot_param_info kParams[] = {mu_param(), slip_threshold_param()};

const pivot_friction_functions kFunctions = friction_functions<Box>();

}  // namespace

const pivot_plugin_descriptor kBoxDescriptor =
    friction_descriptor(Box::kId, "Box friction (Coulomb pyramid)",
                        "two tangential rows bounded by +-mu times the normal force (friction index)",
                        PIVOT_FRICTION_CAP_BOXED, kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
