#include "world/physical_limits.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

void check_timestep(double timestep) {
    if (!(timestep > 0.0) || !(timestep <= PhysicalLimits::max_timestep)) {
        throw Error(fmt::format("settings.timestep: must be a positive number of seconds up to {} s, got {}",
                                PhysicalLimits::max_timestep, timestep));
    }
}

void check_gravity(const std::array<double, 3>& g) {
    const double norm = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (!std::isfinite(g[0] + g[1] + g[2]) || !(norm <= PhysicalLimits::max_gravity)) {
        throw Error(fmt::format(
            "settings.gravity: must be 3 finite numbers of magnitude up to {} m/s^2, got [{}, {}, {}]",
            PhysicalLimits::max_gravity, g[0], g[1], g[2]));
    }
}

void check_shape_size(double value, const std::string& where, const char* field) {
    if (!(value >= PhysicalLimits::min_shape_size) || !(value <= PhysicalLimits::max_shape_size)) {
        throw Error(fmt::format("{}: {}: must be between {} m and {} m, got {}", where, field,
                                PhysicalLimits::min_shape_size, PhysicalLimits::max_shape_size, value));
    }
}

void check_mass_and_inertia(double mass, const std::array<double, 9>& I, const std::string& where) {
    if (!(mass > 0.0) || !std::isfinite(mass)) {
        throw Error(fmt::format("{}: mass: must be a positive number of kg, got {}", where, mass));
    }
    if (!std::all_of(I.begin(), I.end(), [](double x) { return std::isfinite(x); })) {
        throw Error(where + ": inertia: must be finite");
    }
    const double trace_scale = std::abs(I[0]) + std::abs(I[4]) + std::abs(I[8]);
    for (int r = 0; r < 3; ++r) {
        for (int c = r + 1; c < 3; ++c) {
            if (std::abs(I[3 * r + c] - I[3 * c + r]) > 1e-12 * trace_scale) {
                throw Error(fmt::format("{}: inertia: not symmetric (entry ({}, {}) = {} but ({}, {}) = {})", where, r,
                                        c, I[3 * r + c], c, r, I[3 * c + r]));
            }
        }
    }
    // Principal moments of the inertia scaled to unit trace (no underflow or
    // overflow whatever its units), then compared with m r^2 at the limits.
    if (!(trace_scale > 0.0)) throw Error(where + ": inertia: not positive definite (all zero)");
    Eigen::Matrix3d scaled;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) scaled(r, c) = 0.5 * (I[3 * r + c] + I[3 * c + r]) / trace_scale;
    }
    const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(scaled, Eigen::EigenvaluesOnly)
                                        .eigenvalues();  // ascending
    if (!(moments[0] > 1e-15)) {
        throw Error(fmt::format("{}: inertia: not positive definite (principal moments {:.6g}, {:.6g}, {:.6g} kg m^2)",
                                where, moments[0] * trace_scale, moments[1] * trace_scale, moments[2] * trace_scale));
    }
    if (!(moments[2] <= PhysicalLimits::max_inertia_ratio * moments[0])) {
        throw Error(fmt::format("{}: inertia: principal moments {:.6g} and {:.6g} kg m^2 differ by more than the "
                                "factor {:g} a body may have",
                                where, moments[0] * trace_scale, moments[2] * trace_scale,
                                PhysicalLimits::max_inertia_ratio));
    }
    const double r_min = std::sqrt(moments[0] * trace_scale / mass);
    const double r_max = std::sqrt(moments[2] * trace_scale / mass);
    if (!(r_min >= PhysicalLimits::min_gyration_radius) || !(r_max <= PhysicalLimits::max_gyration_radius)) {
        throw Error(fmt::format("{}: inertia: principal moments {:.6g}..{:.6g} kg m^2 give a radius of gyration "
                                "sqrt(I/m) of {:.3g}..{:.3g} m for a mass of {} kg; it must lie between {} m and {} m",
                                where, moments[0] * trace_scale, moments[2] * trace_scale, r_min, r_max, mass,
                                PhysicalLimits::min_gyration_radius, PhysicalLimits::max_gyration_radius));
    }
}

void check_position(const std::array<double, 3>& p, const std::string& where, const char* field) {
    const double m = PhysicalLimits::max_coordinate;
    for (double x : p) {
        if (!(std::abs(x) <= m)) {
            throw Error(fmt::format("{}: {}: coordinates must be finite and within +-{:g} m, got [{}, {}, {}]", where,
                                    field, m, p[0], p[1], p[2]));
        }
    }
}

void check_velocity(const std::array<double, 3>& v, const std::array<double, 3>& w, const std::string& where) {
    const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(speed <= PhysicalLimits::max_speed)) {
        throw Error(fmt::format("{}: linear_velocity: must be finite with a speed up to {:g} m/s, got [{}, {}, {}]",
                                where, PhysicalLimits::max_speed, v[0], v[1], v[2]));
    }
    const double rate = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (!(rate <= PhysicalLimits::max_angular_speed)) {
        throw Error(fmt::format("{}: angular_velocity: must be finite with a rate up to {:g} rad/s, got [{}, {}, {}]",
                                where, PhysicalLimits::max_angular_speed, w[0], w[1], w[2]));
    }
}

void check_damping(double linear, double angular, const std::string& where) {
    for (const auto& [value, field, unit] : {std::tuple{linear, "linear_damping", "N s/m"},
                                             std::tuple{angular, "angular_damping", "N m s/rad"}}) {
        if (!(value >= 0.0 && value <= PhysicalLimits::max_damping)) {
            throw Error(fmt::format("{}: {}: must be a number of {} from 0 to {:g}, got {}", where, field, unit,
                                    PhysicalLimits::max_damping, value));
        }
    }
}

void check_reel_speed(double speed, const std::string& where) {
    if (!(std::abs(speed) <= PhysicalLimits::max_reel_speed)) {
        throw Error(fmt::format("{}: reel_speed: must be a number of m/s within +-{:g}, got {}", where,
                                PhysicalLimits::max_reel_speed, speed));
    }
}

std::array<double, 2> winch_range(double length, double min_length, double max_length, const std::string& where) {
    const double lower = min_length == 0.0 ? 0.1 * length : min_length;
    const double upper = max_length == 0.0 ? 10.0 * length : max_length;
    if (!(lower > 0.0 && lower <= length) || !std::isfinite(lower)) {
        throw Error(fmt::format("{}: min_length: must be in (0, {} m] (the initial length), got {}", where, length,
                                min_length));
    }
    if (!(upper >= length) || !std::isfinite(upper) || upper > PhysicalLimits::max_coordinate) {
        throw Error(fmt::format("{}: max_length: must be at least the initial length {} m and finite, got {}", where,
                                length, max_length));
    }
    return {lower, upper};
}

void check_mass_ratio(double mass, const std::string& where, double lightest, const std::string& lightest_name,
                      double heaviest, const std::string& heaviest_name) {
    const double ratio = PhysicalLimits::max_mass_ratio;
    if (lightest > 0.0 && mass > ratio * lightest) {
        throw Error(fmt::format("{}: mass: {} kg is more than {:g} times the mass of body '{}' ({} kg); a world's "
                                "moving bodies may differ in mass by at most that factor",
                                where, mass, ratio, lightest_name, lightest));
    }
    if (heaviest > 0.0 && mass * ratio < heaviest) {
        throw Error(fmt::format("{}: mass: {} kg is less than 1/{:g} of the mass of body '{}' ({} kg); a world's "
                                "moving bodies may differ in mass by at most that factor",
                                where, mass, ratio, heaviest_name, heaviest));
    }
}

}  // namespace pivot
