// pivot.friction.compliant: compliant (penalty) contact with hysteresis
// damping driven by the coefficient of restitution, and regularized Coulomb
// friction, all as one explicit impulse; no rows.
// Source: seed002_003.md A2.1 (Fancello 2012, sec. 2.1, eq. 2.1-2.5).
//
// Normal force, with delta = depth (m, > 0 penetrating), delta_dot =
// -(u . n) (penetration rate, u = v2 - v1 at the point), v0 = the approach
// speed at impact (state), K the stiffness, n the exponent:
//   f_n = max(0, K delta^n (1 + chi(e) delta_dot / v0))   when delta > 0, else 0
// with the damping factor chi(e) (D = chi / v0 in f = K d^n (1 + D d_dot)):
//   hunt_crossley        chi = 3 (1 - e) / 2          (eq. 2.3)
//   lankarani_nikravesh  chi = 3 (1 - e^2) / 4        (eq. 2.4)
//   flores               chi = 8 (1 - e) / (5 e)      (eq. 2.5)
// (e = 1: chi = 0, the elastic Hertz law for all three.) The clamp at 0
// removes the adhesive tail at the end of the restitution phase; seed002
// A2.1 reports it does not change the effective restitution.
// Stiffness: with effective_modulus E* > 0 and a finite effective radius R*
// from the host, the Hertz sphere-plane stiffness (eq. 2.1, K = 4 / (3
// (sigma_i + sigma_j)) sqrt(R), sigma = (1 - nu^2) / E):
//   K = 4/3 E* sqrt(R*),  1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2
// (meaningful with exponent 1.5); otherwise K = `stiffness`.
//
// Per-contact state (2 doubles): [0] v0 = max(delta_dot, 0) latched at the
// first build() with delta > 0, [1] = 1 once latched (0 in the host's
// zero-filled state of a new contact). On separation (delta <= 0) the state
// is cleared, so that the next impact of the same persistent contact latches
// its own speed (seed002 A2.1: "latch at the first step where delta > 0, and
// reset it on separation"). The damping uses max(v0, min_impact_velocity), so
// a contact that starts at rest (v0 = 0) gets finite, large damping.
//
// Friction: f_t = -mu f_n g(|u_t| / u0) u_t / |u_t| with g = tanh (as
// pivot.friction.regularized, law tanh), using this step's f_n.
// Impulse on body 2: h (f_n n + f_t), angular part 0; body 1 gets the opposite.
// Explicit: needs a step well below the contact time (seed002 B1: h = 1e-5 s
// for steel balls).
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

enum : uint32_t {
    kLaw = 0,
    kStiffness,
    kExponent,
    kRestitution,
    kEffectiveModulus,
    kMu,
    kSlipVelocity,
    kMinImpactVelocity,
    kCount
};

// chi(e) of the three laws (see the header comment), law = index of kLaws.
double damping_factor(double law, double e) {
    if (law == 0.0) return 1.5 * (1.0 - e);
    if (law == 1.0) return 0.75 * (1.0 - e * e);
    return 1.6 * (1.0 - e) / e;  // e > 0 by the schema
}

struct Compliant {
    static constexpr const char* kId = "pivot.friction.compliant";
    static constexpr uint32_t kMaxRows = 0;
    static constexpr uint32_t kState = 2;
    static constexpr uint32_t kParamCount = kCount;

    static void write(RowWriter&, const pivot_contact_point& c, const double* p, const pivot_step_info& step,
                      double* state, double*, double* impulse) {
        const Vec3 n = unit_normal(c);
        const double delta = c.depth;
        if (!(delta > 0.0)) {  // separated: forget the impact speed
            state[0] = state[1] = 0.0;
            return;
        }
        const double delta_dot = -dot(load3(c.relative_velocity), n);
        if (state[1] == 0.0) {
            state[0] = std::fmax(delta_dot, 0.0);
            state[1] = 1.0;
        }
        double k = p[kStiffness];
        if (p[kEffectiveModulus] > 0.0 && std::isfinite(c.effective_radius) && c.effective_radius > 0.0) {
            k = 4.0 / 3.0 * p[kEffectiveModulus] * std::sqrt(c.effective_radius);
        }
        const double v0 = std::fmax(state[0], p[kMinImpactVelocity]);
        const double chi = damping_factor(p[kLaw], p[kRestitution]);
        const double elastic = k * std::pow(delta, p[kExponent]);
        double fn = std::fmax(0.0, elastic * (1.0 + chi * delta_dot / v0));
        if (!std::isfinite(fn)) fn = 0.0;  // only for absurd inputs (overflow)
        const Vec3 ft = regularized_force(tangential_velocity(c, n), fn, p[kMu], p[kSlipVelocity], SmoothLaw::tanh_law);
        const double h = step.timestep > 0.0 ? step.timestep : 0.0;
        store3(h * (fn * n + ft), impulse);
    }
};

const char* const kLaws[] = {"hunt_crossley", "lankarani_nikravesh", "flores"};

const pivot_param_info kParams[] = {
    enum_param("law", "damping factor chi(e): Hunt-Crossley 3(1-e)/2, Lankarani-Nikravesh 3(1-e^2)/4, "
                      "Flores 8(1-e)/(5e)",
               kLaws, 3),
    real_param("stiffness", "N/m^n", "contact stiffness K in f = K delta^n (1 + chi delta_dot / v0)", 1e7, 0.0, kInf),
    real_param("exponent", "1", "exponent n of the penetration (1.5: Hertz)", 1.5, 1.0, 3.0),
    real_param("restitution", "1", "coefficient of restitution e the damping is fitted to", 0.8, 0.0, 1.0,
               PIVOT_PARAM_MIN_EXCLUSIVE),
    real_param("effective_modulus", "Pa",
               "E* = 1/((1-nu1^2)/E1 + (1-nu2^2)/E2); if > 0, K = 4/3 E* sqrt(R*) (Hertz), else `stiffness`", 0.0,
               0.0, kInf),
    mu_param(),
    slip_velocity_param(),
    real_param("min_impact_velocity", "m/s", "lower bound of the latched impact speed v0 in the damping term", 1e-3,
               0.0, kInf, PIVOT_PARAM_MIN_EXCLUSIVE),
};

const pivot_friction_functions kFunctions = friction_functions<Compliant>();

}  // namespace

const pivot_plugin_descriptor kCompliantDescriptor =
    friction_descriptor(Compliant::kId, "Compliant contact (Hunt-Crossley / Lankarani-Nikravesh / Flores)",
                        "Hertz-type normal force with restitution-driven damping and regularized friction, explicit",
                        PIVOT_FRICTION_CAP_EXPLICIT_FORCE | PIVOT_FRICTION_CAP_STATE, kParams,
                        sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
