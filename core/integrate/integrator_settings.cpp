#include "integrate/integrator_settings.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

namespace {

void require_positive(const char* field, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        throw Error(fmt::format("settings.gssss.{}: must be positive and finite, got {}", field, value));
    }
}

}  // namespace

void check_gssss_settings(const GssssSettings& s) {
    const GssssCoefficients c = gssss_coefficients(s.parameters);  // the radii
    require_positive("increment_tolerance", s.increment_tolerance);
    require_positive("residual_tolerance", s.residual_tolerance);
    require_positive("baumgarte_alpha", s.baumgarte_alpha);
    require_positive("baumgarte_beta", s.baumgarte_beta);
    require_positive("projection_tolerance", s.projection_tolerance);
    if (s.max_iterations == 0 || s.max_iterations > 1000) {
        throw Error(fmt::format("settings.gssss.max_iterations: must be 1..1000, got {}", s.max_iterations));
    }
    if (s.projection_iterations > 1000) {
        throw Error(fmt::format("settings.gssss.projection_iterations: must be 0..1000, got {}",
                                s.projection_iterations));
    }
    const bool shifted =
        s.level == ConstraintLevel::acceleration || s.stabilization == ConstraintStabilization::baumgarte;
    if (shifted && c.gamma >= 1.0) {
        throw Error(fmt::format("settings.gssss: acceleration-level constraints need gamma = L6W1 - W1 < 1 (the "
                                "first step's shift 1 / (1 - gamma), Eq. 3.147); these radii give {}",
                                c.gamma));
    }
}

}  // namespace pivot
