// pivot.friction.cone: the polyhedral friction cone of Anitescu & Potra
// (1997), in standard-LCP form (seed000 2.12, eq. 6.58-6.63; Stewart &
// Trinkle 1996).
//
// Rows of a contact with k facets (parameter `facets`), all with bounds
// lo = 0, hi = +inf, findex -1 (a standard LCP):
//   0          the host's normal row, direction (n, 0); z_0 = normal impulse
//   1 .. k     friction direction d_j = cos(2 pi j/k) t1 + sin(2 pi j/k) t2,
//              j = r - 1, direction (d_j, 0); z_r = beta_j >= 0, the impulse
//              along d_j (violation 0, target 0, flag NO_STABILIZATION)
//   k+1        the auxiliary row, direction all zero; z_{k+1} = alpha, which
//              at the solution is the sliding speed (flag NO_STABILIZATION)
// t1 follows the sliding direction when |u_t| > slip_threshold (see
// friction_common.hpp), else it is the host's tangent1. With k even, d_{k/2}
// = -t1, so a sliding contact can take the full force mu z_0 exactly against
// the sliding direction.
//
// The coupling block C (m x m, m = 16 = max_rows_per_contact, column-major,
// impulse units, rows/columns in the order above; a = k + 1) is
//   C(r, a) = 1        for r = 1..k       (E: friction rows x alpha column)
//   C(a, 0) = mu                          (the alpha row, normal column)
//   C(a, r) = -1       for r = 1..k       (-E^T)
//   C(a, a) = 0, every other entry 0.
// With A0 = J M^-1 J^T (+ compliance terms) and b0 from the rows, the host's
// problem over the contact's rows is w = (A0 + C) z + b0, 0 <= z _|_ w >= 0:
//   w_0 = (A0 z + b0)_0                  = normal velocity after the step
//   w_r = (A0 z + b0)_r + alpha          = d_j . u+ + alpha >= 0 _|_ beta_j >= 0
//   w_a = mu z_0 - sum_j beta_j          >= 0 _|_ alpha >= 0
// which is (6.61)/(6.63) in impulse variables (z = h lambda; the h factors of
// (6.63) disappear). A0's auxiliary row and column are zero (zero direction,
// b0_a = 0 since violation = target = 0). The matrix is not symmetric: a
// Lemke-type solver is needed (capability STANDARD_LCP). The friction impulse
// is sum_j beta_j d_j, inside the polygon with vertices mu z_0 d_j (the
// inscribed k-gon of the circular cone: radius mu z_0 cos(pi/k) at its edges).
//
// ABI limit: max_rows_per_contact <= 16, so k + 2 <= 16: facets in 4..14.
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

constexpr uint32_t kMaxFacets = 14;

struct Cone {
    static constexpr const char* kId = "pivot.friction.cone";
    static constexpr uint32_t kMaxRows = kMaxFacets + 2;
    static constexpr uint32_t kState = 0;
    static constexpr uint32_t kParamCount = 3;

    static void write(RowWriter& out, const pivot_contact_point& c, const double* p, const pivot_step_info&, double*,
                      double* coupling, double*) {
        const double mu = p[0];
        uint32_t k = static_cast<uint32_t>(p[1]);
        if (k < 4) k = 4;
        if (k > kMaxFacets) k = kMaxFacets;
        const Frame f = sliding_frame(c, p[2]);

        pivot_row n = normal_row(c);
        n.lower = 0.0;
        n.upper = kInf;
        out.add(n, f.n);
        const pivot_row friction{0.0, 0.0, 0.0, 0.0, 0.0, kInf, -1, PIVOT_ROW_NO_STABILIZATION};
        const double pi = 3.14159265358979323846;
        for (uint32_t j = 0; j < k; ++j) {
            const double angle = 2.0 * pi * static_cast<double>(j) / static_cast<double>(k);
            out.add(friction, std::cos(angle) * f.t1 + std::sin(angle) * f.t2);
        }
        out.add(friction, Vec3{0, 0, 0});

        constexpr size_t m = kMaxRows;
        const size_t a = k + 1;
        coupling[a + 0 * m] = mu;
        for (size_t r = 1; r <= k; ++r) {
            coupling[r + a * m] = 1.0;
            coupling[a + r * m] = -1.0;
        }
    }
};

const pivot_param_info kParams[] = {
    mu_param(),
    int_param("facets", "number k of friction directions (facets of the inscribed polygon), 4..14", 8, 4,
              kMaxFacets),
    slip_threshold_param(),
};

const pivot_friction_functions kFunctions = friction_functions<Cone>();

}  // namespace

const pivot_plugin_descriptor kConeDescriptor =
    friction_descriptor(Cone::kId, "Polyhedral cone (Anitescu-Potra)",
                        "k friction directions and a sliding-speed row: a standard, non-symmetric LCP",
                        PIVOT_FRICTION_CAP_STANDARD_LCP, kParams, sizeof(kParams) / sizeof(kParams[0]),
                        &kFunctions);

}  // namespace pivot::friction
