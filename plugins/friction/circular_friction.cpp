// pivot.friction.circular: the exact circular Coulomb cone for solvers that
// project (seed000 2.13, the prox method of Erleben, eq. 6.67-6.72), with box
// rows as a fallback for boxed solvers.
//
// Rows: exactly as pivot.friction.box (normal; t1, t2 with bounds [-mu, mu]
// x |f_0|, findex 0; t1 along the sliding direction when sliding), so a boxed
// solver that ignores the projection solves the pyramid approximation.
//
// project(): for each block, with z = (z_n, z_1, z_2) the block's impulses,
//   z_n <- max(z_n, 0)
//   (z_1, z_2) <- (z_1, z_2) * min(1, mu z_n / |(z_1, z_2)|)
// i.e. the normal onto R+ and then the tangential impulse onto the disc of
// radius mu z_n given that normal: prox_{R+} for the normal (6.67-6.69) and
// prox_{disc(mu z_n)} for friction (6.70-6.72), the projection non-smooth
// Gauss-Seidel / prox solvers use. It is deliberately NOT the Euclidean
// projection onto the second-order cone {|t| <= mu n}: that one also moves
// z_n (it raises the normal impulse when the friction is outside), which is
// the associated flow rule (normal dilatancy), not Coulomb's law; the
// split projection's fixed points are exactly the Coulomb conditions.
// The result satisfies n >= 0, |t| <= mu n, points already inside are
// unchanged, and it is idempotent. Blocks of 1 row (a normal alone) get only
// z_n <- max(z_n, 0). Its fixed points x = P(x - s w) do not depend on the
// step s > 0 (normal complementarity; -w_t in the normal cone of the disc at
// t), so a projected Gauss-Seidel / projected-gradient sweep with any step
// converges to the Coulomb solution when it converges.
// Note: the host's natural-map residual (plugin_solver.h) is the box rule's;
// a sliding contact whose slip is not along t1 (e.g. when it starts to slide
// during the step) satisfies the cone, not the box, and shows a nonzero box
// residual although it is solved.
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

struct Circular {
    static constexpr const char* kId = "pivot.friction.circular";
    static constexpr uint32_t kMaxRows = 3;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = 2;

    static void write(RowWriter& out, const pivot_contact_point& c, const double* p, const pivot_step_info&, double*,
                      double*, double*) {
        box_rows(out, c, p[0], p[1]);
    }
};

pivot_status project(const void* instance, const pivot_contact_point*, const pivot_contact_block* blocks,
                     uint32_t block_count, double* z) {
    if (instance == nullptr || (block_count > 0 && (blocks == nullptr || z == nullptr))) return PIVOT_ERROR;
    const double mu = params_of(instance)[0];
    for (uint32_t b = 0; b < block_count; ++b) {
        if (blocks[b].row_count == 0) continue;
        double* x = z + blocks[b].first_row;
        const double n = std::fmax(x[0], 0.0);  // also maps NaN to 0
        x[0] = n;
        if (blocks[b].row_count < 3) continue;
        const double radius = mu * n;
        const double t = std::hypot(x[1], x[2]);
        if (t > radius) {  // t > 0 here
            const double s = radius / t;
            x[1] *= s;
            x[2] *= s;
        }
    }
    return PIVOT_OK;
}

const pivot_param_info kParams[] = {mu_param(), slip_threshold_param()};

const pivot_friction_functions kFunctions = friction_functions<Circular>(project);

}  // namespace

const pivot_plugin_descriptor kCircularDescriptor =
    friction_descriptor(Circular::kId, "Circular Coulomb cone",
                        "box rows plus a projection onto the exact cone |f_t| <= mu f_n for projecting solvers",
                        PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_PROJECTION, kParams,
                        sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::friction
