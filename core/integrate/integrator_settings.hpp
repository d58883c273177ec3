#pragma once
// How a world integrates in time (WorldSettings::integrator), and the
// settings of the GSSSS step (gssss_integrator.hpp). Plain data: no Eigen.
#include <cstdint>

#include "integrate/gssss_coefficients.hpp"

namespace pivot {

// The semi-implicit step (core/step/, the default: real time, contacts,
// first order) or a GSSSS member (core/integrate/: second order, smooth
// systems; docs/engine.md "Integrators").
enum class Integrator { semi_implicit, gssss };

enum class ConstraintLevel { position = 3, velocity = 2, acceleration = 1 };
enum class ConstraintStabilization { none, baumgarte, projection };

struct GssssSettings {
    GssssParameters parameters;  // default V0(1, 1, 0), the midpoint rule
    ConstraintLevel level = ConstraintLevel::position;
    ConstraintStabilization stabilization = ConstraintStabilization::none;
    double baumgarte_alpha = 1.0;  // alpha* > 0, dimensionless (the thesis: in (0, 1), and uses 1)
    double baumgarte_beta = 1.0;   // beta* > 0, likewise
    // Newton stops when the largest change of da, relative to 1 + |da|,
    // and of lambda~, relative to 1 + |lambda~| (largest entries), is below
    // increment_tolerance and the largest residual entry below
    // residual_tolerance (the thesis: 1e-8 on the change; [REPRO] adds the
    // residual check); the constraint rows' below the larger of that and
    // what rounding leaves in them (Phi / (l3 h^2) grows as h shrinks).
    double increment_tolerance = 1e-8;
    double residual_tolerance = 1e-6;
    uint32_t max_iterations = 100;
    uint32_t projection_iterations = 20;      // Newton iterations of the position projection
    double projection_tolerance = 1e-14;      // on the projection's largest change
};

// Throws pivot::Error naming the field (settings.gssss.<field>) when a
// setting is out of range.
void check_gssss_settings(const GssssSettings& settings);

}  // namespace pivot
