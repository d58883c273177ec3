#pragma once
// The GSSSS family of implicit integrators (Generalized Single-Step
// Single-Solve; Zhou & Tamma 2004, restated by Huang 2014, the project's
// seed 001, Sec. 2.1): second-order, unconditionally stable for linear
// problems, parameterised by three spectral radii at the high-frequency
// limit, 0 <= rho_s <= rho_min <= rho_max <= 1 (Eq. 2.6). Two families:
// U0 (zero-order displacement overshoot: Newmark, HHT, WBZ, generalized-
// alpha) and V0 (zero-order velocity overshoot: the midpoint rule with
// midpoint acceleration).
//
// One step of the linear parent M a + C v + K u = F solves for the
// acceleration increment da with the equation of motion collocated at the
// algorithmic time t_n + W1 h (Eq. 2.2, erratum E1 applied):
//     u~ = u_n + L1W1 h v_n + L2W2 h^2 a_n + L3W3 h^2 da
//     v~ = v_n + L4W1 h a_n + L5W2 h da
//     a~ = a_n + L6W1 da
//     M a~ + C v~ + K u~ = (1 - W1) F_n + W1 F_n+1
// and updates (Eq. 2.3, erratum E2 applied)
//     u_n+1 = u_n + l1 h v_n + l2 h^2 a_n + l3 h^2 da
//     v_n+1 = v_n + l4 h a_n + l5 h da
//     a_n+1 = a_n + da.
// The names LxWy stand for the thesis's products Lambda_x W_y.

namespace pivot {

enum class GssssFamily { u0, v0 };

struct GssssParameters {
    GssssFamily family = GssssFamily::v0;
    double rho_min = 1.0;  // the two principal roots at h omega -> infinity
    double rho_max = 1.0;
    double rho_s = 0.0;    // the spurious root
};

struct GssssCoefficients {
    double l1w1 = 0, l2w2 = 0, l3w3 = 0, l4w1 = 0, l5w2 = 0, l6w1 = 0, w1 = 0;
    double l1 = 1, l2 = 0.5, l3 = 0, l4 = 1, l5 = 0;
    // The algorithmic acceleration a_n lives at t_n - gamma h, gamma = L6W1 - W1
    // (seed 001 Sec. 2.3): 0 for Newmark, (1 - rho) / (1 + rho) for
    // generalized-alpha, 1/2 for the V0 midpoint rule.
    double gamma = 0;
};

// The coefficients of Eqs. 2.4 (U0) and 2.5 (V0). Throws pivot::Error
// naming the parameter when the radii are not 0 <= rho_s <= rho_min <=
// rho_max <= 1 (or not finite).
GssssCoefficients gssss_coefficients(const GssssParameters& parameters);

// Named members (seed 001 Table 2.1, erratum E3 for HHT).
GssssParameters gssss_newmark();                   // U0(1, 1, 0): average acceleration
GssssParameters gssss_midpoint();                  // V0(1, 1, 0): midpoint rule, midpoint acceleration
GssssParameters gssss_midpoint_end_acceleration(); // U0(1, 1, 1) = V0(1, 1, 1)
GssssParameters gssss_generalized_alpha(double rho);  // U0(rho, rho, rho), Chung & Hulbert 1993
GssssParameters gssss_wbz(double rho);             // U0(rho, rho, 0), Wood, Bossak & Zienkiewicz 1980
GssssParameters gssss_hht(double rho);             // U0(rho, rho, (1 - rho) / (2 rho)), rho in [1/2, 1]

}  // namespace pivot
