// pivot.friction.lugre: the LuGre dynamic friction model (Canudas de Wit,
// Olsson, Astrom & Lischinsky, "A new model for control of systems with
// friction", IEEE Trans. Automatic Control 40(3), 1995), with the forces
// per unit normal force and the bristle deflection z as a vector in the
// tangent plane (the isotropic 2-D model):
//
//     dz/dt = u - sigma0 |u| z / g(|u|),   g(v) = mu_k + (mu_s - mu_k) exp(-(v / v_s)^2)
//     f_t   = -f_n (sigma0 z + sigma1 dz/dt + sigma2 u)
//
// u the tangential relative velocity (body 2 minus body 1), f_t the
// friction force on body 2; sigma0 (1/m) the bristles' stiffness, sigma1
// (s/m) their damping and sigma2 (s/m) the viscous friction, all three per
// newton of normal force, so that a body's friction does not depend on how
// many contacts carry it (the paper's sigmas in N/m and N s/m divided by
// the normal force). At rest under a tangential load F < mu_s f_n the
// contact creeps to the presliding deflection z = F / (sigma0 f_n) and
// holds; sliding steadily, z = g(|u|) / sigma0 and f_t = f_n (g(|u|) +
// sigma2 |u|): Stribeck's curve.
//
// Time discretization (the bristles are stiff: sigma0 f_n / m ~ 1e6 s^-2,
// so h omega ~ 17 at 60 Hz): implicit Euler in z with |u| taken at the
// step's start (pivot_contact_motion, ABI 1.8),
//     z+ = (z + h u+) / D,   D = 1 + h sigma0 |u| / g(|u|),
// which makes the friction force affine in the step's velocity u+:
//     f_t = -k (phi + h u+) - f_n sigma2 u+,   k = f_n (sigma0 + sigma1 / h) / D,
//     phi = z (1 - sigma1 D / (h sigma0 + sigma1)),
// i.e. a compliant row per tangent direction (compliance 1/k, damping
// f_n sigma2, violation phi: docs/engine.md "The per-island problem"), solved
// implicitly with the contact's other rows by any solver. f_n is the
// normal force of the previous step (previous_impulses[0] / h): the law
// lags the normal force by one step. In a new contact's first step (no
// normal force yet) the friction rows are Coulomb's, bounded by g(|u|) f_n
// through the friction index (the bristles holding at z = 0).
//
// State per contact (6 doubles; zero for a new contact): z (world, 3) at
// the start of the last step, that step's D and h, and 1 once set. The
// next build() completes the last step's update with the velocity the step
// ended with (this step's start velocity): z_n+1 = (z_n + h u_n+1) / D_n,
// then writes the rows. Rows: the host's normal row, then one compliant row
// along each of the host's tangents (Coulomb rows in the first step).
#include <cmath>
#include <initializer_list>

#include "friction_common.hpp"

namespace pivot::friction {
namespace {

enum LugreParam : uint32_t {
    kMuStatic = 0,
    kMuKinetic,
    kStribeckVelocity,
    kBristleStiffness,
    kBristleDamping,
    kViscous,
    kCount
};
enum LugreState : uint32_t { kZ = 0, kD = 3, kH = 4, kSet = 5, kStateCount = 6 };

struct Lugre {
    static constexpr const char* kId = "pivot.friction.lugre";
    static constexpr uint32_t kMaxRows = 3;
    static constexpr uint32_t kState = kStateCount;
    static constexpr uint32_t kParamCount = kCount;

    static void write(RowWriter& out, const pivot_contact_point& c, const pivot_contact_motion& motion,
                      const double* p, const pivot_step_info& step, double* state, double*, double*) {
        const Frame f = host_frame(c);
        const double h = step.timestep;
        const Vec3 u = tangential(load3(motion.start_velocity), f.n);
        // The last step's bristle update, completed with its end velocity u.
        Vec3 z = load3(state + kZ);
        const double last_h = state[kSet] != 0.0 ? state[kH] : h;
        if (state[kSet] != 0.0) z = (1.0 / state[kD]) * (z + last_h * u);
        z = tangential(z, f.n);  // in this step's tangent plane
        const double speed = length(u);
        const double g = stribeck_curve(p[kMuStatic], p[kMuKinetic], p[kStribeckVelocity], 2.0, speed);
        const double sigma0 = p[kBristleStiffness], sigma1 = p[kBristleDamping];
        const double d = 1.0 + h * sigma0 * speed / g;
        store3(z, state + kZ);
        state[kD] = d;
        state[kH] = h;
        state[kSet] = 1.0;

        out.add(normal_row(c), f.n);
        const double normal_force = c.previous_impulses[0] > 0.0 ? c.previous_impulses[0] / last_h : 0.0;
        const double k = normal_force * (sigma0 + sigma1 / h) / d;
        if (!(k > 0.0) || !std::isfinite(k)) {
            // No normal force known yet (a new contact): Coulomb rows bounded
            // by g(|u|) times this step's normal impulse (friction index), as
            // the bristles would hold at z = 0; from the next step on the
            // LuGre rows. Without them a block landing on an incline slid
            // freely for a step, reached the kinetic regime (0.077 m/s >>
            // v_s on 28 degrees at 60 Hz) and never stuck.
            out.add(box_row(g), f.t1);
            out.add(box_row(g), f.t2);
            return;
        }
        const double keep = 1.0 - sigma1 * d / (h * sigma0 + sigma1);
        for (const Vec3& t : {f.t1, f.t2}) {
            pivot_row r{};
            r.violation = dot(z, t) * keep;
            r.compliance = 1.0 / k;
            r.damping = normal_force * p[kViscous];
            r.lower = -kInf;
            r.upper = kInf;
            r.findex = -1;
            r.flags = 0;
            out.add(r, t);
        }
    }
};

const pivot_param_info kParams[] = {
    real_param("mu_static", "1", "static coefficient mu_s: g(0), the breakaway force per newton of normal force",
               0.6, 0.0, kInf),
    real_param("mu_kinetic", "1", "kinetic (Coulomb) coefficient mu_k: g well above the Stribeck velocity", 0.4,
               0.0, kInf),
    real_param("stribeck_velocity", "m/s", "Stribeck velocity v_s of g(v)", 0.01, 0.0, kInf,
               PIVOT_PARAM_MIN_EXCLUSIVE),
    real_param("bristle_stiffness", "1/m", "sigma0: bristle stiffness per newton of normal force", 1e4, 0.0, kInf,
               PIVOT_PARAM_MIN_EXCLUSIVE),
    real_param("bristle_damping", "s/m", "sigma1: bristle damping per newton of normal force", 30.0, 0.0, kInf),
    real_param("viscous", "s/m", "sigma2: viscous friction per newton of normal force", 0.0, 0.0, kInf),
};
static_assert(sizeof(kParams) / sizeof(kParams[0]) == kCount, "one schema entry per parameter");

const pivot_friction_functions kFunctions = friction_functions_with_motion<Lugre>();

}  // namespace

const pivot_plugin_descriptor kLugreDescriptor = friction_descriptor(
    Lugre::kId, "LuGre friction", "dynamic friction with bristle state: presliding, Stribeck curve, stick-slip "
                                  "(compliant rows, implicit in the bristles; needs a 1.8 host)",
    PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_STATE, kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
