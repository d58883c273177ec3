// pivot.friction.regularized: smooth Coulomb friction as an explicit impulse
// (seed000 2.10, "penalty with regularized friction", eq. 6.40-6.41 for the
// linear ramp, 2.22 for tanh), with the normal kept as a row.
//
// Row 0: the host's normal row, direction (n, 0). No friction rows.
// Impulse on body 2 (body 1 gets the opposite), linear part only:
//   f_n = max(previous_impulses[0], 0) / h          (last step's normal force)
//   f_t = -mu f_n g(|u_t| / u0) u_t / |u_t|,        u_t = tangential relative velocity
//   g(s) = tanh(s)  (law = tanh)   or   min(1, s)  (law = linear)
//   impulse = (h f_t, 0 0 0)  = -mu max(p_n, 0) g(|u_t|/u0) u_t/|u_t|
// f_t is continuous at u_t = 0 (f_t -> -mu f_n u_t / u0). There is no
// stiction: a tangential load makes the contact creep at a speed of order u0
// (seed000 2.10, weaknesses). The friction lags the normal force by one step.
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

struct Regularized {
    static constexpr const char* kId = "pivot.friction.regularized";
    static constexpr uint32_t kMaxRows = 1;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = 3;

    static void write(RowWriter& out, const pivot_contact_point& c, const double* p, const pivot_step_info& step,
                      double*, double*, double* impulse) {
        const Vec3 n = unit_normal(c);
        out.add(normal_row(c), n);
        const double h = step.timestep;
        if (!(h > 0.0)) return;
        const double fn = std::fmax(c.previous_impulses[0], 0.0) / h;
        const Vec3 ft = regularized_force(tangential_velocity(c, n), fn, p[0], p[2],
                                          p[1] == 0.0 ? SmoothLaw::tanh_law : SmoothLaw::linear_law);
        store3(h * ft, impulse);
    }
};

const char* const kLaws[] = {"tanh", "linear"};

const pivot_param_info kParams[] = {
    mu_param(),
    enum_param("law", "smoothing g(s) of the Coulomb force: tanh(s) or min(1, s), s = |u_t| / slip_velocity", kLaws,
               2),
    slip_velocity_param(),
};

const pivot_friction_functions kFunctions = friction_functions<Regularized>();

}  // namespace

const pivot_plugin_descriptor kRegularizedDescriptor =
    friction_descriptor(Regularized::kId, "Regularized Coulomb friction",
                        "explicit smooth Coulomb force (tanh or linear ramp) from last step's normal impulse",
                        PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_EXPLICIT_FORCE, kParams,
                        sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
