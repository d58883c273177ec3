// V1 of the seed 001 extract (Sec. 3.5): the GSSSS coefficient generator
// (Eqs. 2.4, 2.5) against the evaluated table of Sec. 2.2, and the U0
// family against Chung & Hulbert's generalized-alpha. The table's entries
// are exact fractions (or 4-5 digit decimals for generalized-alpha), so
// the tolerance is rounding (1e-14) where the value is exact and half a
// unit of the printed last digit otherwise.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "integrate/gssss_coefficients.hpp"

namespace pivot {
namespace {

struct Row {
    const char* name;
    GssssParameters parameters;
    double l1w1, l2w2, l3w3, l4w1, l5w2, l6w1, w1, l3, l5, gamma;
    double tolerance;
};

TEST(GssssCoefficients, ReproduceTheTableOfNamedMembers) {
    const Row rows[] = {
        {"U0(1,1,0) Newmark", gssss_newmark(), 1, 0.5, 0.25, 1, 0.5, 1, 1, 0.25, 0.5, 0, 1e-14},
        {"V0(1,1,0) MPR-MPA", gssss_midpoint(), 0.5, 0.25, 0.25, 0.5, 0.5, 1, 0.5, 0.5, 1, 0.5, 1e-14},
        {"U0V0(1,1,1) MPR-EPA", gssss_midpoint_end_acceleration(), 0.5, 0.25, 0.125, 0.5, 0.25, 0.5, 0.5, 0.25, 0.5,
         0, 1e-14},
        {"U0(0.8,0.8,0.8) gen-alpha", gssss_generalized_alpha(0.8), 0.5556, 0.2778, 0.17147, 0.5556, 0.33951, 0.6667,
         0.5556, 0.30864, 0.61111, 0.1111, 5e-5},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(r.name);
        const GssssCoefficients c = gssss_coefficients(r.parameters);
        EXPECT_NEAR(c.l1w1, r.l1w1, r.tolerance);
        EXPECT_NEAR(c.l2w2, r.l2w2, r.tolerance);
        EXPECT_NEAR(c.l3w3, r.l3w3, r.tolerance);
        EXPECT_NEAR(c.l4w1, r.l4w1, r.tolerance);
        EXPECT_NEAR(c.l5w2, r.l5w2, r.tolerance);
        EXPECT_NEAR(c.l6w1, r.l6w1, r.tolerance);
        EXPECT_NEAR(c.w1, r.w1, r.tolerance);
        EXPECT_NEAR(c.l3, r.l3, r.tolerance);
        EXPECT_NEAR(c.l5, r.l5, r.tolerance);
        EXPECT_NEAR(c.gamma, r.gamma, r.tolerance);
        EXPECT_EQ(c.l1, 1.0);
        EXPECT_EQ(c.l2, 0.5);
        EXPECT_EQ(c.l4, 1.0);
    }
}

// U0(rho, rho, rho) is Chung & Hulbert's generalized-alpha: beta = l3,
// gamma_N = l5, alpha_f = 1 - W1, alpha_m = 1 - L6W1 with alpha_m = (2 rho -
// 1) / (rho + 1), alpha_f = rho / (rho + 1), beta = (1 - alpha_m +
// alpha_f)^2 / 4, gamma_N = 1/2 - alpha_m + alpha_f.
TEST(GssssCoefficients, U0IsGeneralizedAlpha) {
    for (double rho : {0.0, 0.3, 0.5, 0.8, 0.95, 1.0}) {
        SCOPED_TRACE(rho);
        const GssssCoefficients c = gssss_coefficients(gssss_generalized_alpha(rho));
        const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
        EXPECT_NEAR(1 - c.l6w1, am, 1e-14);
        EXPECT_NEAR(1 - c.w1, af, 1e-14);
        EXPECT_NEAR(c.l3, 0.25 * (1 - am + af) * (1 - am + af), 1e-14);
        EXPECT_NEAR(c.l5, 0.5 - am + af, 1e-14);
        EXPECT_NEAR(c.gamma, (1 - rho) / (1 + rho), 1e-14);  // Sec. 2.3
    }
    // WBZ: alpha_f = 0, alpha_m = (rho - 1) / (rho + 1); HHT: alpha_m = 0.
    const GssssCoefficients wbz = gssss_coefficients(gssss_wbz(0.6));
    EXPECT_NEAR(1 - wbz.w1, 0.0, 1e-14);
    EXPECT_NEAR(1 - wbz.l6w1, (0.6 - 1) / (0.6 + 1), 1e-14);
    const GssssCoefficients hht = gssss_coefficients(gssss_hht(0.7));
    EXPECT_NEAR(1 - hht.l6w1, 0.0, 1e-14);
}

// The two midpoint rules: u~ = (u_n + u_n+1) / 2 and v~ = (v_n + v_n+1) / 2
// (Sec. 2.2): L1W1 = l1 / 2, L2W2 = l2 / 2, L3W3 = l3 / 2, L4W1 = l4 / 2,
// L5W2 = l5 / 2.
TEST(GssssCoefficients, MidpointRulesEvaluateAtTheMidpoint) {
    for (const GssssParameters& p : {gssss_midpoint(), gssss_midpoint_end_acceleration()}) {
        const GssssCoefficients c = gssss_coefficients(p);
        EXPECT_NEAR(c.l1w1, c.l1 / 2, 1e-15);
        EXPECT_NEAR(c.l2w2, c.l2 / 2, 1e-15);
        EXPECT_NEAR(c.l3w3, c.l3 / 2, 1e-15);
        EXPECT_NEAR(c.l4w1, c.l4 / 2, 1e-15);
        EXPECT_NEAR(c.l5w2, c.l5 / 2, 1e-15);
        EXPECT_NEAR(c.w1, 0.5, 1e-15);
    }
}

TEST(GssssCoefficients, RejectsRadiiOutOfOrderOrRange) {
    EXPECT_THROW(gssss_coefficients({GssssFamily::u0, 0.5, 0.4, 0.0}), Error);  // rho_min > rho_max
    EXPECT_THROW(gssss_coefficients({GssssFamily::v0, 0.5, 1.0, 0.6}), Error);  // rho_s > rho_min
    EXPECT_THROW(gssss_coefficients({GssssFamily::v0, 0.5, 1.2, 0.0}), Error);
    EXPECT_THROW(gssss_coefficients({GssssFamily::v0, -0.1, 1.0, 0.0}), Error);
    EXPECT_THROW(gssss_coefficients({GssssFamily::v0, std::numeric_limits<double>::quiet_NaN(), 1.0, 0.0}), Error);
    EXPECT_THROW(gssss_hht(0.4), Error);  // rho_s = 0.75 > rho
    try {
        gssss_coefficients({GssssFamily::v0, 0.5, 1.0, 0.6});
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("rho_s"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace pivot
