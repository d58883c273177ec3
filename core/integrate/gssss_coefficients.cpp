#include "integrate/gssss_coefficients.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

GssssCoefficients gssss_coefficients(const GssssParameters& p) {
    const double rmin = p.rho_min, rmax = p.rho_max, rs = p.rho_s;
    for (const auto& [name, value] : {std::pair<const char*, double>{"rho_min", rmin}, {"rho_max", rmax},
                                      {"rho_s", rs}}) {
        if (!std::isfinite(value) || value < 0.0 || value > 1.0) {
            throw Error(fmt::format("GSSSS parameters: {} = {} is not in [0, 1]", name, value));
        }
    }
    if (!(rs <= rmin && rmin <= rmax)) {
        throw Error(fmt::format("GSSSS parameters: need rho_s <= rho_min <= rho_max (seed 001 Eq. 2.6), got "
                                "rho_s = {}, rho_min = {}, rho_max = {}",
                                rs, rmin, rmax));
    }
    const double d = (1 + rmin) * (1 + rmax);
    const double spread = 3 + rmin + rmax - rmin * rmax;
    GssssCoefficients c;
    c.l6w1 = (2 + rmin + rmax + rs - rmin * rmax * rs) / (d * (1 + rs));
    c.l3w3 = 1 / (d * (1 + rs));
    if (p.family == GssssFamily::u0) {  // Eq. 2.4
        c.l1w1 = 1 / (1 + rs);
        c.l2w2 = 1 / (2 * (1 + rs));
        c.l4w1 = 1 / (1 + rs);
        c.l5w2 = spread / (2 * d * (1 + rs));
        c.w1 = 1 / (1 + rs);
        c.l3 = 1 / d;
        c.l5 = spread / (2 * d);
    } else {  // Eq. 2.5
        c.l1w1 = spread / (2 * d);
        c.l2w2 = 1 / d;
        c.l4w1 = c.l1w1;
        c.l5w2 = 2 / (d * (1 + rs));
        c.w1 = c.l1w1;
        c.l3 = 1 / (2 * (1 + rs));
        c.l5 = 1 / (1 + rs);
    }
    c.gamma = c.l6w1 - c.w1;
    return c;
}

GssssParameters gssss_newmark() { return {GssssFamily::u0, 1, 1, 0}; }
GssssParameters gssss_midpoint() { return {GssssFamily::v0, 1, 1, 0}; }
GssssParameters gssss_midpoint_end_acceleration() { return {GssssFamily::u0, 1, 1, 1}; }
GssssParameters gssss_generalized_alpha(double rho) { return {GssssFamily::u0, rho, rho, rho}; }
GssssParameters gssss_wbz(double rho) { return {GssssFamily::u0, rho, rho, 0}; }
GssssParameters gssss_hht(double rho) {
    // rho_s = (1 - rho_min rho_max) / (rho_min + rho_max + 2 rho_min rho_max)
    // (Table 2.1 as corrected by erratum E3), <= rho only for rho >= 1/2.
    if (!(rho >= 0.5 && rho <= 1.0)) throw Error(fmt::format("HHT: rho = {} is not in [1/2, 1]", rho));
    return {GssssFamily::u0, rho, rho, (1 - rho) / (2 * rho)};
}

}  // namespace pivot
