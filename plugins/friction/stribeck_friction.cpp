// pivot.friction.stribeck: Coulomb friction whose coefficient depends on the
// sliding speed (the Stribeck curve; Armstrong-Helouvry, Dupont & Canudas
// de Wit, "A survey of models, analysis tools and compensation methods for
// the control of machines with friction", Automatica 30(7), 1994):
//
//     mu(v) = mu_k + (mu_s - mu_k) exp(-(|v| / v_s)^delta)
//
// with mu_s the static coefficient (v = 0), mu_k the kinetic one (|v| >> v_s),
// v_s the Stribeck velocity and delta the shape exponent (2: Gaussian, 1:
// exponential). mu_s < mu_k makes a velocity-strengthening law.
//
// Rows: those of pivot.friction.box (normal; t1 along the slip at the free
// velocity, t2 across; bounds +-mu |f_0| by friction index), with
// mu = mu(|u_t|) at the tangential relative velocity at the START of the
// step (pivot_contact_motion, ABI 1.8), not at the free velocity v*: a block
// resting on an incline has u_t = 0 at the start of every step, so it keeps
// mu_s at any step size, where v* shows a "slip" of g sin(theta) h (0.077
// m/s on 28 degrees at 60 Hz) that would drop mu toward mu_k and let it
// slide. A sliding contact gets mu at its last step's speed: the law lags
// the velocity by one step, first order in h like the step itself
// (docs/writing-a-friction-plugin.md "Velocity-dependent laws"). Because t1
// follows the direction the contact would slide in, the friction force of
// a sliding or about-to-slide contact is along t1 and |f_t| <= mu f_n.
#include <cmath>

#include "friction_common.hpp"

namespace pivot::friction {
namespace {

enum StribeckParam : uint32_t { kMuStatic = 0, kMuKinetic, kStribeckVelocity, kExponent, kSlipThreshold, kCount };

struct Stribeck {
    static constexpr const char* kId = "pivot.friction.stribeck";
    static constexpr uint32_t kMaxRows = 3;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = kCount;

    static void write(RowWriter& out, const pivot_contact_point& c, const pivot_contact_motion& motion,
                      const double* p, const pivot_step_info&, double*, double*, double*) {
        const double slip = length(tangential(load3(motion.start_velocity), unit_normal(c)));
        const double mu = stribeck_curve(p[kMuStatic], p[kMuKinetic], p[kStribeckVelocity], p[kExponent], slip);
        box_rows(out, c, mu, p[kSlipThreshold]);
    }
};

const pivot_param_info kParams[] = {
    real_param("mu_static", "1", "static friction coefficient mu_s (at zero sliding speed)", 0.6, 0.0, kInf),
    real_param("mu_kinetic", "1", "kinetic friction coefficient mu_k (sliding well above the Stribeck velocity)",
               0.4, 0.0, kInf),
    real_param("stribeck_velocity", "m/s", "Stribeck velocity v_s: mu falls from mu_s to mu_k around it", 0.1, 0.0,
               kInf, PIVOT_PARAM_MIN_EXCLUSIVE),
    real_param("exponent", "1", "shape exponent delta of exp(-(v/v_s)^delta): 2 Gaussian, 1 exponential", 2.0, 0.0,
               kInf, PIVOT_PARAM_MIN_EXCLUSIVE),
    slip_threshold_param(),
};
static_assert(sizeof(kParams) / sizeof(kParams[0]) == kCount, "one schema entry per parameter");

const pivot_friction_functions kFunctions = friction_functions_with_motion<Stribeck>();

}  // namespace

const pivot_plugin_descriptor kStribeckDescriptor = friction_descriptor(
    Stribeck::kId, "Stribeck friction", "box friction whose mu falls from mu_s to mu_k with the sliding speed at the "
                                        "step's start (velocity-weakening; needs a 1.8 host)",
    PIVOT_FRICTION_CAP_BOXED, kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
