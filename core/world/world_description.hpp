#pragma once
// What a user gives to build a world in code (the scene loader and the C API
// fill these too). SI units; world frame; quaternions (w, x, y, z) body to
// world; anchors and axes in WORLD coordinates at the initial configuration
// (docs/scene-format.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "integrate/integrator_settings.hpp"
#include "lcp/lcp_solver_chain.hpp"

namespace pivot {

using Vec3d = std::array<double, 3>;
using Quatd = std::array<double, 4>;  // w, x, y, z

struct WorldSettings {
    double timestep = 1e-3;                  // s, > 0
    // How the world advances (docs/engine.md "Integrators"): the
    // semi-implicit step (the default: real time, contacts, first order) or
    // a GSSSS member (second order; rigid bodies and rigid joints, no
    // contacts yet: a step that starts in contact fails), with `gssss`.
    Integrator integrator = Integrator::semi_implicit;
    GssssSettings gssss;
    Vec3d gravity = {0.0, 0.0, -9.81};       // m/s^2
    SolverChoice solver = {"pivot.solver.dantzig", nlohmann::json::object()};
    std::vector<SolverChoice> fallback = {{"pivot.solver.pgs", nlohmann::json::object()}};  // tried in order
                                             // when the primary fails (PGS copes with redundant rows)
    double solver_acceptance = 1e-6;         // largest natural-map residual accepted (N s)
    // Islands without friction indices or coupling blocks (chains, trees and
    // loops of joints, limits, motors, frictionless contacts) are solved by
    // the sparse direct solver (pivot.solver.direct: a sparse LDL^T of the
    // problem's factored form, linear in the rows for chains and trees), with
    // `solver` and `fallback` behind it; the others by `solver`. false:
    // `solver` takes every island. The scene loader and the C API set it
    // false when a solver is named, and World::set_solver does.
    bool direct_islands = true;
    // Islands of contacts with friction indices (piles, stacks, boxes on
    // the ground; no cone projections, coupling blocks or cables) are solved
    // by the Newton solver (pivot.solver.newton: a convex problem in the
    // island's velocities, a few sparse factorizations for a large pile),
    // with velocity PGS and large_island_sweeps sweeps behind it (bounded:
    // Newton's pivoting can stall on 3-D piles of spheres, where Dantzig
    // and a 10 000-sweep PGS took seconds per step), or `solver` and
    // `fallback` when large_island_rows is 0. Set false like direct_islands.
    bool newton_islands = true;
    // Islands of contacts with more rows than this (piles of hundreds of
    // bodies: thousands of contacts) are solved by projected Gauss-Seidel
    // in velocities (pivot.solver.velocity_pgs), whose sweep costs
    // O(rows) where the Newton solver's factorization of a 3-D pile fills
    // in (docs/solvers.md "Large islands"), with at most
    // large_island_sweeps sweeps per step: that is the island's work
    // budget, and an answer it cuts short counts in
    // StepStatistics::budget_limited with its residual, not as a failure.
    // No fallback runs behind it. 0 = never (the islands stay with the
    // Newton solver or `solver`); set 0 like direct_islands when a solver
    // is named.
    uint32_t large_island_rows = 4000;
    uint32_t large_island_sweeps = 20;
    // Wall time a step may take (s; 0 = none). The islands' solves get what
    // the other stages leave (those of the last step's stages after the
    // solve estimated), each island what the ones before it left; a solver
    // that honours time budgets (newton, pgs) stops with its best answer,
    // no fallback starts once it is spent, and the island counts in
    // StepStatistics::budget_limited, not as a failure.
    double step_budget = 0.0;
    // A guard, not a budget: the wall time after which a step's solves are
    // cut as if a step_budget of this length were set, whatever
    // step_budget says (s; 0 = off). Only pathological input reaches it
    // (a 120-box pyramid at 60 Hz takes ~2 ms a step, the slowest step of
    // the test suite is ~0.3 s under AddressSanitizer); it keeps any scene
    // the loader accepts from holding a step for many seconds (a pyramid
    // at h = 1 s with Dantzig spent up to 1.7 s per step in its friction
    // rounds). A step it cuts counts in StepStatistics::budget_limited like
    // a budgeted one, and depends on the machine's speed.
    double step_time_limit = 1.0;
    // A step that a plugin discards (PIVOT_DISCARD: its outputs unusable for
    // this step only, e.g. an element whose own iteration did not converge
    // at this h) changes nothing and is taken again as 2, then 4, ... up to
    // 2^discard_halvings substeps of h / substeps, sharing the step's
    // budget; when those are discarded too, or the step_time_limit has
    // passed, the step fails and the world stays as it was. 0 = no retry.
    // StepStatistics::substeps says how a step was taken.
    uint32_t discard_halvings = 4;
    static constexpr uint32_t kMaxDiscardHalvings = 10;
    // Memory caps of a step's constraint rows, in values of 8 bytes, so that
    // no scene the loader accepts makes a step allocate without bound. A
    // contact row on a cable carries its response Mbar^-1 J^T over the
    // whole cable (nv values: the cable's inverse mass is dense), so two
    // cables of 1000 elements lying on each other need gigabytes, and an
    // island of such rows fills its assembled matrix.
    // - Contacts whose rows' Jacobians and responses (counted at their
    //   friction model's most rows) would take the contacts of the step
    //   past max_contact_row_values are dropped for the step, in the
    //   collision's order, and counted in StepStatistics::contacts_dropped.
    // - An island whose matrix would take more than max_assembled_values
    //   (n^2 dense, or the sparse entries) is not assembled: velocity PGS
    //   solves it on the factored form (counted in large_islands, with
    //   large_island_sweeps sweeps), or, with friction coupling blocks (no
    //   factored form), it is not solved: a solver failure, its constraints
    //   skipped for the step.
    // Scenes of real-time size are far below both (scenes/pyramid.json:
    // 144 contacts, 2e4 contact row values, one island of 432 rows, 1.9e5
    // values dense; the harness's 1000-sphere pile: 4e5 contact row values).
    // Dantzig or Lemke on a dense island of 2048 rows takes seconds.
    size_t max_contact_row_values = size_t{1} << 24;  // 128 MiB
    size_t max_assembled_values = size_t{1} << 22;    // 32 MiB: a dense island of 2048 rows
    // Threads that solve a step's islands (the calling one included): 0 =
    // the machine's hardware threads, at most 4; 1 = the calling thread
    // only. The pool starts with the first step that has two islands to
    // share. Whatever the count, a world's steps are bitwise the same: each
    // island's answer depends on the island only (solvers that declare
    // DETERMINISTIC, one instance per thread; islands with cone projections
    // stay on the calling thread) and the answers are applied in island
    // order (docs/engine.md "Islands in parallel").
    uint32_t threads = 0;
    std::string rigid_body_element = "pivot.element.rigid_body";
    nlohmann::json rigid_body_options = nlohmann::json::object();  // e.g. {"gyroscopic": "implicit"}
    double contact_margin = 0.01;            // m: contacts with a gap up to this are rows (speculative)
    double restitution_threshold = 0.1;      // m/s: slower approaches do not bounce
    // Rigid contact rows (material compliance 0) get regularization * A_kk
    // added to their diagonal: a compliance scaled to the contact's own
    // effective mass, c = regularization * h^2 * A_kk (m/N), so one number
    // works from grams to tonnes. It makes the impulses of redundant contact
    // sets (a box face on 4 points, a pyramid) unique, which the exact
    // friction solve needs; the price is a relative error of the same size
    // in the contact forces. 0 = exactly rigid (then redundant sets are left
    // to the fallback solver).
    double contact_regularization = 1e-5;
    // Joints' geometric stiffness on the frames' relative motion, implicit
    // (core/step/geometric_stiffness.cpp): what keeps chains and heavy
    // loads stable at 60 Hz and 30 Hz. false = the rows' directions are
    // taken at the start of the step only (unstable above h ~ 2/omega).
    bool geometric_stiffness = true;
    // The stiffness stage first bounds how stiff the bodies are
    // (core/step/stiffness_bound.hpp) and skips the exact computation when
    // no joint can need stiffness; the step is bitwise the same either way.
    // false = always the exact computation (tests compare the two).
    bool stiffness_bound = true;
    // After each step the positions are projected back onto the rigid
    // joints (velocities untouched), so joint errors do not accumulate and
    // their correction does not add energy (core/step/project_positions.cpp):
    // this many Newton steps at most (joint Jacobians at the end of the step).
    uint32_t projection_iterations = 1;  // 0 = none
    // A step reports the world as diverging (StepStatistics::diverging) when
    // its energy exceeds what the work done on it allows by more than this
    // fraction of its energy scale (the larger of the largest kinetic energy
    // and the energy above the lowest potential seen), or when a joint's
    // error exceeds divergence_joint_error (m or rad). 0 = that test off.
    double divergence_energy = 0.1;
    double divergence_joint_error = 0.1;
};

// The wall time a step's solves may use (s; 0 = unbounded): step_budget,
// or step_time_limit when that is set and shorter.
inline double effective_step_budget(const WorldSettings& s) {
    const bool guard_shorter = s.step_time_limit > 0.0 && (s.step_budget <= 0.0 || s.step_time_limit < s.step_budget);
    return guard_shorter ? s.step_time_limit : s.step_budget;
}

// A collision shape (docs/scene-format.md "shapes"), in the body frame (or the
// world frame for static shapes).
struct ShapeDescription {
    std::string type;                 // sphere, box, capsule, cylinder, plane (static only)
    double radius = 0.0;              // m: sphere, capsule, cylinder
    double length = 0.0;              // m: capsule segment, cylinder height (along local z)
    Vec3d size = {0, 0, 0};           // m: box full edge lengths
    Vec3d normal = {0, 0, 1};         // plane: the half-space normal.x <= offset is solid
    double offset = 0.0;              // plane (m)
    Vec3d position = {0, 0, 0};       // m, offset in the body frame
    Quatd orientation = {1, 0, 0, 0}; // offset in the body frame
    std::string material = "default";
};

// A contact material (docs/scene-format.md "materials").
struct MaterialDescription {
    std::string name;
    std::string friction_model = "pivot.friction.box";  // friction plugin id (short names accepted)
    nlohmann::json friction = {{"mu", 0.5}};            // that plugin's parameters
    double restitution = 0.0;  // Newton's law on the normal velocity, [0, 1]
    double compliance = 0.0;   // m/N, normal direction; 0 = rigid
    double damping = 0.0;      // N s/m, normal direction
};

// Overrides for one pair of materials (docs/scene-format.md "material_pairs"):
// what is set replaces the combination rule (mu = sqrt(mu1 mu2), e = max,
// compliances in series, damping max) for contacts between the two.
struct MaterialPairDescription {
    std::array<std::string, 2> materials;
    std::optional<std::string> friction_model;  // default: the first material's
    std::optional<nlohmann::json> friction;     // that model's parameters, all of them (nothing is combined;
                                                // unset: the model's defaults if friction_model is set)
    std::optional<double> restitution;
    std::optional<double> compliance;
    std::optional<double> damping;
};

struct BodyDescription {
    std::string name;                         // unique; "world" is reserved
    double mass = 1.0;                        // kg, > 0
    std::array<double, 9> inertia = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // kg m^2, body frame at the COM, row-major, SPD
    Vec3d position = {0, 0, 0};               // m, centre of mass in world
    Quatd orientation = {1, 0, 0, 0};         // unit, body to world
    Vec3d linear_velocity = {0, 0, 0};        // m/s, world
    Vec3d angular_velocity = {0, 0, 0};       // rad/s, world
    bool fixed = false;                       // immovable
    std::vector<ShapeDescription> shapes;     // collision geometry
    // Viscous damping of the body's motion (>= 0; 0 = none): a force
    // -linear_damping v on its centre of mass (N s/m) and a torque
    // -angular_damping omega (N m s/rad), treated implicitly (stable at any
    // step: core/step/element_dynamics.cpp).
    double linear_damping = 0.0;
    double angular_damping = 0.0;
    // The body's own friction parameters (docs/scene-format.md "Bodies"):
    // values that replace those of its materials' pair in every contact it
    // makes, for the parameters the contact's friction model has (a worn
    // tyre, a wet pallet). Empty: none.
    nlohmann::json friction = nlohmann::json::object();
};

struct JointLimits {
    double lower = 0.0;  // rad or m
    double upper = 0.0;
};

// A joint's motor (drive) on its free coordinate: pivot_motor_mode in
// <pivot/plugin.h> gives each mode's law (docs/engine.md "Drives").
struct JointMotor {
    double velocity = 0.0;   // rad/s or m/s: velocity mode's target, position mode's feed-forward rate
    double max_force = 0.0;  // N m or N, >= 0: the bound of every mode
    pivot_motor_mode mode = PIVOT_MOTOR_VELOCITY;
    double position = 0.0;   // rad or m: position mode's target
    double stiffness = 0.0;  // N m/rad or N/m, >= 0: position mode (0 = a rigid servo)
    double damping = 0.0;    // N m s/rad or N s/m, >= 0: velocity mode (0 = rigid) and position mode
    double force = 0.0;      // N m or N: force mode's force (clamped to max_force)
};

struct JointDescription {
    std::string name;                // unique among joints
    std::string type;                // fixed, spherical, revolute, prismatic, cylindrical, universal,
                                     // distance, or a joint plugin id
    std::string body1 = "world";     // body name or "world"
    std::string body2 = "world";
    Vec3d anchor = {0, 0, 0};        // m, world (all but prismatic and distance)
    Vec3d axis = {1, 0, 0};          // unit, world (revolute, prismatic, cylindrical)
    Vec3d axis1 = {1, 0, 0};         // universal: on body 1
    Vec3d axis2 = {0, 1, 0};         // universal: on body 2, perpendicular to axis1
    Vec3d anchor1 = {0, 0, 0};       // distance: on body 1, world
    Vec3d anchor2 = {0, 0, 0};       // distance: on body 2, world
    std::optional<double> length;    // distance: m; default the initial distance
    double compliance = 0.0;         // m/N or rad/(N m); 0 = rigid
    double damping = 0.0;            // N s/m or N m s/rad
    std::optional<JointLimits> limits;
    std::optional<JointMotor> motor;
    bool enabled = true;             // false: built but inactive until World::set_joint_enabled
    // Breakable joints (docs/engine.md "Changing a world while it runs"):
    // the joint is disabled after a step whose reaction force (N) or torque
    // (N m, about frame 2's origin) exceeds these in magnitude; 0 = never.
    double break_force = 0.0;
    double break_torque = 0.0;
};

// Where a cable node is pinned (docs/scene-format.md "cables": "attach").
struct CableAttachment {
    int64_t node = 0;              // node index from 0; -1 = the last node ("last")
    std::string body = "world";    // body name or "world"
    // The joint that pins it: a joint type (a short name stands for
    // pivot.joint.<name>, as in JointDescription) whose plugin places its
    // frames at an anchor, world-aligned (PIVOT_JOINT_FRAMES_ANCHOR: pins the
    // node's position) or along an axis (PIVOT_JOINT_FRAMES_AXIS: the axis is
    // the cable's tangent at the node). The scene format's attachment types
    // are resolved to joint types by the reader (scene/short_names.hpp).
    std::string joint;
};

// A straight ANCF cable (docs/scene-format.md "cables"): `elements` equal
// elements from `start` to `end`, nodes 0 .. elements, circular section
// (A = pi r^2, I = pi r^4 / 4), at rest and stress-free when created.
struct CableDescription {
    std::string name;                              // unique among cables and bodies
    std::string type = "pivot.element.ancf_cable"; // an element plugin with shared nodes and curve geometry
    Vec3d start = {0, 0, 0};                       // m, world
    Vec3d end = {1, 0, 0};                         // m, world; != start
    uint32_t elements = 1;                         // >= 1
    double radius = 0.01;                          // m, > 0 (also the contact radius)
    double density = 7800.0;                       // kg/m^3, > 0
    double youngs_modulus = 2e11;                  // Pa, > 0
    std::optional<uint32_t> gauss_points;          // per element; default the plugin's
    double damping = 0.0;                          // s: Kelvin-Voigt time constant (plugin "damping")
    std::optional<double> geometric_stiffness;     // [0, 1]: plugin "geometric_stiffness" (default the plugin's)
    std::string material = "default";              // contact material
    std::vector<CableAttachment> attach;
    // The winch (docs/engine.md "Winches"): the deployed length changes at
    // reel_speed (m/s; > 0 pays out, < 0 reels in; World::set_cable_reel_speed)
    // within [min_length, max_length] (m; 0 = a tenth of / ten times the
    // initial length).
    double reel_speed = 0.0;
    double min_length = 0.0;
    double max_length = 0.0;
};

// A point of a rope's route (docs/scene-format.md "ropes"): where the rope
// passes through a body (radius 0: an eye, an end) or over a sheave on it
// (radius > 0: a circle about `axis` through `point`, which the rope wraps
// counterclockwise about the axis as it runs from the first point to the last).
struct RopePointDescription {
    std::string body = "world";  // body name or "world"
    Vec3d point = {0, 0, 0};     // m, world, as the body is when the rope is added
    Vec3d axis = {0, 0, 1};      // world, as the body is when the rope is added; read when radius > 0
    double radius = 0.0;         // m, >= 0; 0 at the two ends
};

// A massless rope reeved over sheaves (docs/engine.md "Ropes and sheaves"):
// one unilateral row keeps its path no longer than its length (it goes
// slack, never pushes), elastic with stiffness EA, reeled at reel_speed.
struct RopeDescription {
    std::string name;                          // unique among ropes
    std::vector<RopePointDescription> route;   // >= 2 points, on at most 4 distinct bodies
    double length = 0.0;                       // m, > 0: unstretched length; 0 = the route's length when added
    double stiffness = 0.0;                    // N: axial stiffness EA (> 0); 0 = inextensible
    double damping = 0.0;                      // N s/m along the rope (with stiffness > 0)
    // The winch, as for cables: the length changes at reel_speed (m/s; > 0
    // pays out, < 0 reels in; World::set_rope_reel_speed) within
    // [min_length, max_length] (m; 0 = a tenth of / ten times the initial length).
    double reel_speed = 0.0;
    double min_length = 0.0;
    double max_length = 0.0;
};

}  // namespace pivot
