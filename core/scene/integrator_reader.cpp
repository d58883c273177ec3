#include "scene/integrator_reader.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

using scene::JsonAt;
using scene::JsonObject;

namespace {

// Named GSSSS members (seed 001 Table 2.1); rho for the one-parameter ones.
GssssParameters named_member(const JsonAt& at, const std::string& scheme, const std::optional<JsonAt>& rho_at) {
    const auto rho = [&] {
        if (!rho_at) {
            at.fail(fmt::format("scheme '{}' needs \"rho\" (the spectral radius at infinity, in [0, 1])", scheme));
        }
        const double r = rho_at->number();
        if (!(r >= 0.0 && r <= 1.0)) rho_at->fail(fmt::format("must be in [0, 1], got {}", r));
        return r;
    };
    const bool fixed = scheme == "newmark" || scheme == "midpoint" || scheme == "midpoint_end_acceleration";
    if (fixed && rho_at) rho_at->fail(fmt::format("scheme '{}' has no parameter rho", scheme));
    if (scheme == "newmark") return gssss_newmark();
    if (scheme == "midpoint") return gssss_midpoint();
    if (scheme == "midpoint_end_acceleration") return gssss_midpoint_end_acceleration();
    if (scheme == "generalized_alpha") return gssss_generalized_alpha(rho());
    if (scheme == "wbz") return gssss_wbz(rho());
    if (scheme == "hht") {
        const double r = rho();
        if (r < 0.5) rho_at->fail(fmt::format("HHT needs rho in [1/2, 1], got {}", r));
        return gssss_hht(r);
    }
    at.fail(fmt::format("unknown scheme '{}' (newmark, midpoint, midpoint_end_acceleration, generalized_alpha, wbz, "
                        "hht; or family and rho_min, rho_max, rho_s)",
                        scheme));
}

}  // namespace

void read_integrator(const JsonAt& at, WorldSettings& settings) {
    if (at.json().is_string()) {
        const std::string type = at.string();
        if (type == "semi_implicit") {
            settings.integrator = Integrator::semi_implicit;
        } else if (type == "gssss") {
            settings.integrator = Integrator::gssss;
        } else {
            at.fail(fmt::format("unknown integrator '{}' (semi_implicit or gssss)", type));
        }
        return;
    }
    const JsonObject o(at, {"type", "scheme", "rho", "family", "rho_min", "rho_max", "rho_s", "constraints",
                            "stabilization", "baumgarte_alpha", "baumgarte_beta", "tolerance", "residual_tolerance",
                            "max_iterations", "projection_iterations"});
    const JsonAt type_at = o.required("type", "the integrator, semi_implicit or gssss");
    const std::string type = type_at.string();
    if (type == "semi_implicit") {
        settings.integrator = Integrator::semi_implicit;
        return;
    }
    if (type != "gssss") type_at.fail(fmt::format("unknown integrator '{}' (semi_implicit or gssss)", type));
    settings.integrator = Integrator::gssss;
    GssssSettings& g = settings.gssss;
    if (auto scheme = o.optional("scheme")) {
        if (o.has("family") || o.has("rho_min") || o.has("rho_max") || o.has("rho_s")) {
            scheme->fail("give a scheme or family with rho_min, rho_max and rho_s, not both");
        }
        g.parameters = named_member(*scheme, scheme->string(), o.optional("rho"));
    } else {
        if (o.has("rho")) {
            o.required("rho", "").fail("rho goes with a one-parameter scheme (generalized_alpha, wbz, hht)");
        }
        if (auto family = o.optional("family")) {
            const std::string f = family->string();
            if (f == "U0") {
                g.parameters.family = GssssFamily::u0;
            } else if (f == "V0") {
                g.parameters.family = GssssFamily::v0;
            } else {
                family->fail(fmt::format("unknown family '{}' (U0 or V0)", f));
            }
        }
        for (auto [key, field] : {std::pair{"rho_min", &g.parameters.rho_min},
                                  std::pair{"rho_max", &g.parameters.rho_max},
                                  std::pair{"rho_s", &g.parameters.rho_s}}) {
            if (auto v = o.optional(key)) *field = v->number();
        }
        try {
            gssss_coefficients(g.parameters);
        } catch (const Error& e) {
            at.fail(e.what());
        }
    }
    if (auto v = o.optional("constraints")) {
        const std::string level = v->string();
        if (level == "position") {
            g.level = ConstraintLevel::position;
        } else if (level == "velocity") {
            g.level = ConstraintLevel::velocity;
        } else if (level == "acceleration") {
            g.level = ConstraintLevel::acceleration;
        } else {
            v->fail(fmt::format("unknown constraint level '{}' (position, velocity or acceleration)", level));
        }
    }
    if (auto v = o.optional("stabilization")) {
        const std::string s = v->string();
        if (s == "none") {
            g.stabilization = ConstraintStabilization::none;
        } else if (s == "baumgarte") {
            g.stabilization = ConstraintStabilization::baumgarte;
        } else if (s == "projection") {
            g.stabilization = ConstraintStabilization::projection;
        } else {
            v->fail(fmt::format("unknown stabilization '{}' (none, baumgarte or projection)", s));
        }
    }
    for (auto [key, field] : {std::pair{"baumgarte_alpha", &g.baumgarte_alpha},
                              std::pair{"baumgarte_beta", &g.baumgarte_beta},
                              std::pair{"tolerance", &g.increment_tolerance},
                              std::pair{"residual_tolerance", &g.residual_tolerance}}) {
        if (auto v = o.optional(key)) {
            *field = v->number();
            if (!(*field > 0.0)) v->fail(fmt::format("must be > 0, got {}", *field));
        }
    }
    for (auto [key, field] : {std::pair{"max_iterations", &g.max_iterations},
                              std::pair{"projection_iterations", &g.projection_iterations}}) {
        if (auto v = o.optional(key)) {
            const int64_t n = v->integer();
            if (n < 0 || n > 1000) v->fail(fmt::format("must be a whole number 0..1000, got {}", n));
            *field = static_cast<uint32_t>(n);
        }
    }
    try {
        check_gssss_settings(g);
    } catch (const Error& e) {
        at.fail(e.what());
    }
}

}  // namespace pivot
