#pragma once
// What a world accepts where physics itself sets no bound: the time step,
// gravity, shape sizes, a body's mass and inertia, and the spread of masses
// in one world. Inside these limits a step stays well conditioned in double
// precision; outside them an input is refused with the field named, before
// it can make a step slow or meaningless (a box 1e29 m long loses its contact
// depths to round-off; a 1e-12 kg box in a pile of 1 kg boxes makes every
// solver crawl). docs/scene-format.md, "Limits", says the same to users.
#include <array>
#include <string>

namespace pivot {

struct PhysicalLimits {
    static constexpr double max_timestep = 1.0;            // s (real-time users run 1/30 s and below)
    static constexpr double max_gravity = 1.0e4;           // m/s^2, |g| (1000 g)
    static constexpr double min_shape_size = 1.0e-6;       // m: radius, length, box side
    static constexpr double max_shape_size = 1.0e5;        // m: 100 km (round-off at that scale is ~1e-11 m)
    static constexpr double min_gyration_radius = 1.0e-6;  // m: sqrt(I / m) of every principal moment
    static constexpr double max_gyration_radius = 1.0e5;   // m
    static constexpr double max_inertia_ratio = 1.0e10;    // largest / smallest principal moment of a body
    static constexpr double max_mass_ratio = 1.0e8;        // heaviest / lightest moving body of a world
    static constexpr double max_coordinate = 1.0e6;        // m: |x|, |y|, |z| of a position (round-off ~1e-10 m)
    static constexpr double max_speed = 1.0e4;             // m/s: a body's given linear speed
    static constexpr double max_angular_speed = 1.0e5;     // rad/s: a body's given angular speed
    static constexpr double max_damping = 1.0e12;          // N s/m, N m s/rad: a body's viscous damping
    static constexpr double max_reel_speed = 100.0;        // m/s: a winch's speed (the fastest hoists: ~10 m/s)
};

// Each throws pivot::Error "<where>: <field>: <what is wrong>" (where = e.g.
// "body 'boom'"); the scene loader prepends the file and JSON pointer.
void check_timestep(double timestep);
void check_gravity(const std::array<double, 3>& gravity);
void check_shape_size(double value, const std::string& where, const char* field);
// Positive mass; a finite, symmetric, positive definite inertia (kg m^2,
// row-major) whose principal moments have radii of gyration within the
// limits and a ratio within max_inertia_ratio. The test is relative: an
// inertia of 1e-101 is refused as too small, not misread as indefinite
// through an underflowing determinant.
void check_mass_and_inertia(double mass, const std::array<double, 9>& inertia, const std::string& where);
// A position (m) whose coordinates are within +-max_coordinate.
void check_position(const std::array<double, 3>& p, const std::string& where, const char* field);
// A body's given velocity: speeds within max_speed and max_angular_speed.
void check_velocity(const std::array<double, 3>& linear, const std::array<double, 3>& angular,
                    const std::string& where);
// A body's linear (N s/m) and angular (N m s/rad) damping: 0 .. max_damping.
void check_damping(double linear, double angular, const std::string& where);
// A winch's reel speed (m/s): finite, |speed| <= max_reel_speed.
void check_reel_speed(double speed, const std::string& where);
// A winch's range [min_length, max_length] (m) for a cable or rope of
// initial length `length`: 0 stands for a tenth of / ten times it; the
// range must hold the length and stay finite.
std::array<double, 2> winch_range(double length, double min_length, double max_length, const std::string& where);
// The mass of a new moving body against the lightest and heaviest moving
// bodies already in the world (names for the message; 0 kg when none).
void check_mass_ratio(double mass, const std::string& where, double lightest, const std::string& lightest_name,
                      double heaviest, const std::string& heaviest_name);

}  // namespace pivot
