#pragma once
// A world: elements of element plugins (bodies, which carry shapes; cables,
// chains of elements with shared nodes) connected by joints and touching in
// contacts, stepped with one complementarity problem per island per step
// (docs/engine.md). Model and state live here, in flat arrays
// grouped by plugin instance; the stages of a step are in core/step/, one
// file each, and read and write only these arrays.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collision/shapes.hpp"
#include "common/error.hpp"
#include "lcp/lcp_problem.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/plugin_instance.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "world/rope_geometry.hpp"
#include "world/step_outputs.hpp"
#include "world/world_description.hpp"

namespace pivot {

class GssssWorldStep;

// Handles: indices in creation order.
using BodyId = uint32_t;
using JointId = uint32_t;
using CableId = uint32_t;
using RopeId = uint32_t;

// The elements of one element plugin instance, contiguous in the world's
// q and v arrays, stored by node. Without shared nodes every element has its
// own nodes (a rigid body: one); a chain (PIVOT_ELEMENT_CAP_SHARED_NODES, a
// cable: one instance per cable) has count + 1 nodes, element e using nodes
// e and e + 1.
struct ElementGroup {
    PluginInstance instance;
    uint32_t count = 0;
    uint32_t nq = 0;        // coordinates per element
    uint32_t nv = 0;        // velocities per element
    uint32_t node_nq = 0;   // coordinates per node
    uint32_t node_nv = 0;   // velocities per node
    bool chain = false;     // shared nodes: count + 1 nodes
    uint32_t first = 0;     // global index of the group's first element
    uint32_t q_offset = 0;  // of the first node in World::q
    uint32_t v_offset = 0;  // of the first node in World::v
    uint32_t item_stride = 0;
    std::vector<double> item_params;  // count x item_stride
    std::vector<double> q_reference;  // count x nq, at creation (per element)
    // Per-element copies of a chain's shared node values, for batched calls
    // (element_batch; a second call overwrites the first's batch, and const
    // readers write them: one thread per world); unused otherwise.
    mutable std::vector<double> gathered_q, gathered_v;

    uint32_t node_count() const { return chain ? (count > 0 ? count + 1 : 0) : count * (nq / node_nq); }
    uint32_t q_size() const { return node_count() * node_nq; }
    uint32_t v_size() const { return node_count() * node_nv; }
    // Offsets of element e's first coordinate / velocity from the group's.
    uint32_t element_q(uint32_t e) const { return e * (chain ? node_nq : nq); }
    uint32_t element_v(uint32_t e) const { return e * (chain ? node_nv : nv); }
};

// All elements of a group as one batch over the state's arrays (what every
// batched element call receives); a chain's elements are gathered from its
// nodes. `v` replaces the state's velocities when given (v_size() values).
struct WorldState;
pivot_element_batch element_batch(const ElementGroup& group, const WorldState& state, const double* v = nullptr,
                                  const double* q = nullptr);


// A mass block: the velocities solved together by one factorization of
// the block's matrix. A rigid body (or any element without shared nodes) is
// a block of its own; a chain (a cable) is one block over all its nodes,
// whose internal (strain) rows are eliminated into its matrix
// (core/step/element_dynamics.cpp), so the rows that reach the solvers are
// joints and contacts only.
struct MassBlock {
    uint32_t group = 0;          // element group
    uint32_t first_element = 0;  // global index
    uint32_t element_count = 0;
    uint32_t v_offset = 0;       // into WorldState::v
    uint32_t nv = 0;             // velocities of the block
    bool chain = false;          // factorized sparse (CHOLMOD), else dense
};

// A cable: a chain element group and its contact sample points.
struct CableRecord {
    static constexpr uint32_t kContactPoints = 3;  // contact samples per element
    std::string name;
    uint32_t group = 0;                     // element group (one per cable)
    uint32_t material = 0;                  // contact material index
    double radius = 0.0;                    // m
    uint32_t length_param = 0;              // offset of the per-item "length" in the group's item params
    uint32_t contact_points = kContactPoints;
    double contact_s[kContactPoints] = {};  // Gauss-Legendre points on [0, 1]
    double contact_w[kContactPoints] = {};  // and weights (sum 1)
    std::vector<uint32_t> attachment_joints;  // joints created for its "attach" entries
    bool removed = false;                     // World::remove_cable: a tombstone keeping the ids of the others
    // Its winch (CableDescription): the deployed (reference) length, the
    // sum of its elements' lengths, changes by h reel_speed per step
    // within [min_length, max_length] (World::reel_cables).
    double length = 0.0;      // m
    double reel_speed = 0.0;  // m/s, > 0 pays out
    double min_length = 0.0;  // m
    double max_length = 0.0;  // m
    // The elements' straight reference (World::set_cable_length): the
    // cable's start and initial orientation (x along it).
    std::array<double, 3> reference_start{};
    std::array<double, 4> reference_frame{1, 0, 0, 0};
};

// Where a joint frame is fixed: on an element (material point + rotation of
// the frame relative to the element's material frame) or in the world.
struct Attachment {
    static constexpr uint32_t kWorld = UINT32_MAX;
    uint32_t element = kWorld;            // global element index
    std::array<double, 3> local_point{};  // element material coordinates, or world position
    std::array<double, 4> local_rotation{1, 0, 0, 0};  // frame relative to the material frame (or world)
};

// The joints of one joint plugin instance.
struct JointGroup {
    PluginInstance instance;
    uint32_t count = 0;
    uint32_t max_rows = 0;
    uint32_t item_stride = 0;
    std::vector<double> item_params;  // count x item_stride
    std::vector<uint32_t> joints;     // world joint index of each member
    uint32_t impulse_offset = 0;      // of member 0 in WorldState::joint_impulses (count x max_rows)
    uint32_t laid_out = 0;            // members at the last World::relayout (their impulses are kept)
};

struct Energy {
    double kinetic = 0.0;        // J
    double gravitational = 0.0;  // J, zero at the world origin
    double elastic = 0.0;        // J: elements' internal energy and compliant joint rows, (1/2) phi^2 / c
    double total() const { return kinetic + gravitational + elastic; }
};

// A massless rope (RopeDescription): its route points on elements (a
// sheave's axis in the element's material frame) and its winch.
struct RopePoint {
    Attachment at;          // local_point: the point or the sheave's centre
    Vec3d axis{0, 0, 1};    // unit, material frame (world for a world point)
    double radius = 0.0;    // m
};

// A route point in world coordinates: at the pose (x y z qw qx qy qz) of
// its element's material frame there, or, with nullptr, fixed in the world.
RopeVertex rope_vertex(const RopePoint& p, const double* material_pose);

struct RopeRecord {
    static constexpr uint32_t kMaxBodies = 4;  // distinct moving elements (ProblemRow::blocks)
    std::string name;
    std::vector<RopePoint> route;
    double length = 0.0;      // m, unstretched
    double stiffness = 0.0;   // N (EA); 0 = inextensible
    double damping = 0.0;     // N s/m
    double reel_speed = 0.0;  // m/s, > 0 pays out
    double min_length = 0.0;  // m
    double max_length = 0.0;  // m
    bool removed = false;     // World::remove_rope: a tombstone keeping the ids of the others
};

struct JointRecord {
    std::string name;
    uint32_t group = 0;   // joint group
    uint32_t member = 0;  // index within the group
    Attachment frame1, frame2;
    bool enabled = true;        // a disabled joint writes no rows (World::set_joint_enabled)
    bool broken = false;        // disabled by its break threshold (JointDescription::break_force)
    double break_force = 0.0;   // N, 0 = unbreakable
    double break_torque = 0.0;  // N m, 0 = unbreakable
    bool removed = false;       // World::remove_joint: a tombstone (no group member) keeping the others' ids
};

// Where an enabled joint's frames are when World::set_joint_enabled turns it on.
enum class JointAnchor {
    as_built,      // where they were attached when the joint was added
    current_pose,  // frame 2 moved onto frame 1 as the bodies are now (a hook
                   // engaging a load where it touches); a two-anchor joint
                   // (distance) keeps its anchors and takes the current
                   // distance as its length
};

struct BodyRecord {
    std::string name;
    uint32_t group = 0;    // element group
    uint32_t element = 0;  // global element index
    double mass = 0.0;     // kg
    double linear_damping = 0.0;   // N s/m (BodyDescription)
    double angular_damping = 0.0;  // N m s/rad
    bool removed = false;          // World::remove_body: a tombstone (no element) keeping the others' ids
    bool fixed = false;            // BodyDescription::fixed (model fixed[] also holds a disabled body)
    // World::set_body_enabled: a disabled body is held where it is (as a
    // fixed one), collides with nothing, and its joints write no rows; its
    // velocities wait in `held_velocity`.
    bool enabled = true;
    std::vector<double> held_velocity;
    uint32_t friction_profile = 0;  // its own friction parameters: index into WorldModel::friction_profiles
};

// What two touching materials use: the friction-model instance of the pair
// and the normal law (docs/scene-format.md: mu = sqrt(mu1 mu2), e = max(e1, e2)).
struct MaterialPair {
    uint32_t friction = 0;  // index into WorldModel::friction_instances
    double restitution = 0.0;
    double compliance = 0.0;  // m/N (the softer material's, added in series)
    double damping = 0.0;     // N s/m
};

// The friction coefficients, which materials and bodies' own values combine
// as sqrt(a b) (rebuild_material_pairs, world_friction_profiles.cpp).
inline bool is_friction_coefficient(std::string_view name) {
    return name == "mu" || name == "mu_static" || name == "mu_kinetic";
}

// A pair met by bodies with their own friction values, as a saved state
// keeps it: its key (friction_pair_key) and the index of its instance.
struct SavedFrictionPair {
    uint32_t material_a, profile_a, material_b, profile_b;
    uint32_t instance;
};

// The model: what the world is made of. Grows by adding things; between
// steps joints are also enabled, disabled and broken (JointRecord).
struct WorldModel {
    WorldSettings settings;
    std::vector<ElementGroup> element_groups;
    std::vector<JointGroup> joint_groups;
    std::vector<BodyRecord> bodies;
    std::vector<JointRecord> joints;
    std::vector<uint8_t> fixed;             // per global element: immovable
    std::vector<uint8_t> disabled;          // per global element: a disabled body's (relayout())
    // Per global element: a body's viscous damping (BodyRecord: linear N s/m,
    // angular N m s/rad; zeros for other elements), laid out by relayout().
    std::vector<std::array<double, 2>> element_damping;
    std::vector<uint32_t> element_group;    // per global element
    std::vector<uint32_t> element_v_offset; // per global element, into WorldState::v
    std::vector<uint32_t> element_nv;       // per global element
    std::vector<MassBlock> blocks;
    std::vector<uint32_t> element_block;        // per global element
    std::vector<uint32_t> element_block_offset; // per global element: its first velocity within its block
    std::vector<CableRecord> cables;
    std::vector<RopeRecord> ropes;
    // Contact on cables: each cable element carries sample points along its
    // centreline (Gauss-Legendre points, material s in (0, 1), weight w = the
    // length each stands for, m), each a sphere of the cable's radius in the
    // collision world whose collision body index is element_count + sample.
    struct ContactSample {
        uint32_t element;  // global element index
        double s;          // material coordinate along the element, (0, 1)
        double weight;     // m of cable this point stands for
    };
    std::vector<ContactSample> contact_samples;
    // Contact: materials ([0] is "default"), shapes (collision::Shape::body
    // is a global element index, or collision::kStaticBody), and per pair of
    // materials (materials x materials) the friction instance and normal law.
    std::vector<MaterialDescription> materials;
    std::vector<collision::Shape> shapes;
    uint32_t next_shape_key = 0;  // Shape::key of the next shape added (contact ids survive removals)
    std::vector<PluginInstance> friction_instances;
    std::vector<MaterialPair> material_pairs;
    std::vector<MaterialPairDescription> material_pair_overrides;
    // Bodies' own friction parameters (world_friction_profiles.cpp): the
    // distinct override objects in use ([0] is {}: none), each body's and
    // each element's profile (0 for cables), and the pairs met by bodies
    // with a profile: (material,
    // profile) of either side, ordered, to an index of material_pairs after
    // the materials x materials grid, made when first met. Their instances
    // are shared by equal parameter sets (friction_instance_params: each
    // instance's packed parameters).
    std::vector<nlohmann::json> friction_profiles = std::vector<nlohmann::json>(1, nlohmann::json::object());
    std::vector<uint32_t> element_friction_profile;
    std::map<std::array<uint32_t, 4>, uint32_t> profiled_pairs;
    std::vector<std::vector<double>> friction_instance_params;
    uint32_t element_count = 0;
    uint32_t nq = 0;  // total coordinates
    uint32_t nv = 0;  // total velocities
    // Called with each island's assembled problem just before it is solved
    // (`pivot run --dump-lcp`); empty, it costs one test per island.
    std::function<void(uint32_t island, const LcpProblem& problem)> lcp_observer;
};

// The element a collision body moves with: rigid bodies are their element;
// cable contact samples, numbered after the elements, their cable element;
// -1 for the world (static shapes).
inline int32_t collision_element(const WorldModel& model, int32_t body) {
    if (body < 0) return -1;
    const auto b = static_cast<uint32_t>(body);
    return b < model.element_count ? body : static_cast<int32_t>(model.contact_samples[b - model.element_count].element);
}

// The front of WorldModel::material_pairs is the materials x materials grid,
// and the front of friction_instances its instances, one per pair a <= b
// (rebuild_material_pairs); the pairs of bodies' own values come after.
inline size_t material_grid_pairs(const WorldModel& model) { return model.materials.size() * model.materials.size(); }
inline size_t material_grid_instances(const WorldModel& model) {
    return model.materials.size() * (model.materials.size() + 1) / 2;
}

// A body's own friction parameters at one side of a contact: its profile
// (WorldModel::friction_profiles), 0 for static shapes and cables.
inline uint32_t shape_friction_profile(const WorldModel& model, const collision::Shape& shape) {
    const auto body = static_cast<uint32_t>(shape.body);
    return shape.body >= 0 && body < model.element_friction_profile.size() ? model.element_friction_profile[body] : 0;
}

// The key of a pair met by bodies with their own friction parameters: the
// (material, profile) of either side, the smaller first, so that both
// orders of the same two sides find one pair.
inline std::array<uint32_t, 4> friction_pair_key(uint32_t material_a, uint32_t profile_a, uint32_t material_b,
                                                 uint32_t profile_b) {
    if (std::make_pair(material_b, profile_b) < std::make_pair(material_a, profile_a)) {
        return {material_b, profile_b, material_a, profile_a};
    }
    return {material_a, profile_a, material_b, profile_b};
}

// What a contact between two shapes uses (an index into
// WorldModel::material_pairs): the pair of their materials, or, when a side's
// body has its own friction parameters, the pair made for the two sides
// (World::make_friction_pairs_met, before the contact stage).
inline uint32_t contact_material_pair(const WorldModel& model, const collision::Shape& a, const collision::Shape& b) {
    const auto materials = static_cast<uint32_t>(model.materials.size());
    const uint32_t grid = a.material * materials + b.material;
    const uint32_t profile_a = shape_friction_profile(model, a);
    const uint32_t profile_b = shape_friction_profile(model, b);
    if (profile_a == 0 && profile_b == 0) return grid;
    const auto it = model.profiled_pairs.find(friction_pair_key(a.material, profile_a, b.material, profile_b));
    return it != model.profiled_pairs.end() ? it->second : grid;
}

// The state: what changes from step to step.
struct WorldState {
    double time = 0.0;
    std::vector<double> q;        // model.nq
    std::vector<double> v;        // model.nv
    std::vector<double> applied;  // model.nv: external generalized forces
    // Last step's impulse of every joint row slot (N s): the warm start of
    // the next step, whatever solver runs it. Per joint group, count x max_rows.
    std::vector<double> joint_impulses;
    // Last step's tension of every rope (N; removed ropes keep 0): what
    // World::rope_tension reports, and times h the next step's warm start
    // (a force, so that a step taken in substeps reports it right).
    std::vector<double> rope_tensions;
    // Contacts of the last step by persistent id (sorted), each with the
    // friction-model instance that built it (into WorldModel::
    // friction_instances) and its slots, sized by that model
    // (max_rows_per_contact and state_per_contact, at most kMaxContactRows
    // and kMaxContactState): its row impulses at contact_impulses
    // [contact_row_start[k] .. [k + 1]) and its model state at contact_state
    // [contact_state_start[k] .. [k + 1]), the warm start and memory of the
    // next step; and each one's total linear impulse on body 2 (3 each,
    // world, N s: rows along their directions plus the explicit impulse),
    // given to the friction model as previous_impulses in the next step's
    // contact frame.
    static constexpr uint32_t kMaxContactRows = 16;
    static constexpr uint32_t kMaxContactState = 64;
    // The impulses and state values a friction model keeps per contact.
    static uint32_t contact_rows_of(const pivot_friction_functions& f) {
        return f.max_rows_per_contact < kMaxContactRows ? f.max_rows_per_contact : kMaxContactRows;
    }
    static uint32_t contact_state_of(const pivot_friction_functions& f) {
        return f.state_per_contact < kMaxContactState ? f.state_per_contact : kMaxContactState;
    }
    std::vector<uint64_t> contact_ids;
    std::vector<uint32_t> contact_models;
    std::vector<uint32_t> contact_row_start{0};    // contacts + 1
    std::vector<uint32_t> contact_state_start{0};  // contacts + 1
    std::vector<double> contact_impulses;
    std::vector<double> contact_state;
    std::vector<double> contact_linear_impulses;
    // The divergence watch's bookkeeping (core/step/divergence.cpp):
    // the energy the world may have (its energy when the watch started plus
    // the work done on it since), the largest kinetic and the smallest
    // potential energy seen. Restarted when a body is moved by hand.
    struct EnergyWatch {
        bool valid = false;
        double reference = 0.0;      // J
        double kinetic_max = 0.0;    // J
        double potential_min = 0.0;  // J
    } energy_watch;
};

struct StepScratch;  // core/step/step_scratch.hpp

class WorkerPool;

// One thread's solver chains for the islands (the world's, or its clones
// for a pool thread): the world's solver, and the direct and Newton chains
// (null when off).
struct IslandChains {
    LcpSolverChain* chain = nullptr;
    LcpSolverChain* direct = nullptr;
    LcpSolverChain* newton = nullptr;
    LcpSolverChain* large = nullptr;
};

class World {
public:
    // The registry must outlive the world and hold the plugins it names.
    World(const PluginRegistry& registry, WorldSettings settings);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Building. Throw pivot::Error naming the body/joint and the field.
    BodyId add_body(const BodyDescription& body);
    JointId add_joint(const JointDescription& joint);
    // A cable and the joints of its "attach" entries (named "<cable>/attach<k>").
    CableId add_cable(const CableDescription& cable);
    // A material (replaces one of the same name, "default" included) and a
    // shape fixed in the world (planes only here).
    void add_material(const MaterialDescription& material);
    void add_static_shape(const ShapeDescription& shape);
    // Overrides for contacts between two defined materials (replaces an
    // earlier override of the same pair).
    void add_material_pair(const MaterialPairDescription& pair);

    // Advances by one timestep (core/step/step.cpp; with the GSSSS
    // integrator core/integrate/gssss_world_step.cpp).
    void step();
    // Chooses the integrator (WorldSettings::integrator, gssss); the GSSSS
    // state starts again from the world's state at the next step. Throws
    // for invalid settings (the field named).
    void set_integrator(Integrator integrator, const GssssSettings& gssss = {});

    double time() const { return state_.time; }
    const WorldSettings& settings() const { return model_.settings; }
    uint32_t body_count() const { return static_cast<uint32_t>(model_.bodies.size()); }
    uint32_t joint_count() const { return static_cast<uint32_t>(model_.joints.size()); }
    BodyId body(std::string_view name) const;    // throws for an unknown name
    JointId joint(std::string_view name) const;  // throws for an unknown name
    const std::string& body_name(BodyId b) const { return model_.bodies.at(b).name; }
    const std::string& joint_name(JointId j) const { return model_.joints.at(j).name; }
    uint32_t cable_count() const { return static_cast<uint32_t>(model_.cables.size()); }
    CableId cable(std::string_view name) const;  // throws for an unknown name
    const std::string& cable_name(CableId c) const { return model_.cables.at(c).name; }
    // Nodes 0 .. elements of a cable: world position (m) and velocity (m/s)
    // of its centreline there, and the unit tangent.
    uint32_t cable_node_count(CableId c) const;
    std::array<double, 3> cable_node_position(CableId c, uint32_t node) const;
    std::array<double, 3> cable_node_velocity(CableId c, uint32_t node) const;
    std::array<double, 3> cable_node_tangent(CableId c, uint32_t node) const;
    // Winches (docs/engine.md "Winches"): the deployed length (m, the sum
    // of the elements' reference lengths) and the speed at which it changes
    // from the next step on (m/s; > 0 pays out, < 0 reels in; it stops at
    // the cable's min_length and max_length).
    double cable_length(CableId c) const { return model_.cables.at(c).length; }
    void set_cable_reel_speed(CableId c, double speed);

    // Ropes (world_ropes.cpp, docs/engine.md "Ropes and sheaves"): a
    // massless rope reeved over sheaves on bodies, with its winch.
    RopeId add_rope(const RopeDescription& rope);
    uint32_t rope_count() const { return static_cast<uint32_t>(model_.ropes.size()); }
    RopeId rope(std::string_view name) const;  // throws for an unknown name
    const std::string& rope_name(RopeId r) const { return model_.ropes.at(r).name; }
    // Unstretched length (m), and the speed at which it changes from the
    // next step on (m/s; > 0 pays out, < 0 reels in; it stops at the rope's
    // min_length and max_length).
    double rope_length(RopeId r) const { return model_.ropes.at(r).length; }
    void set_rope_reel_speed(RopeId r, double speed);
    // The tension of the last step (N, >= 0; 0 when slack).
    double rope_tension(RopeId r) const;
    // The rope's path now: where it arrives at and leaves each route point
    // (world, m), and its length (m, stretched).
    void rope_path(RopeId r, RopePath& path) const;
    void remove_rope(RopeId r);
    bool rope_removed(RopeId r) const { return model_.ropes.at(r).removed; }

    // The centreline point at material coordinate s in [0, 1] of element e:
    // pose (x y z qw qx qy qz, x axis along the tangent) and twist (v, w).
    void cable_point(CableId c, uint32_t element, double s, double pose[7], double twist[6]) const;

    // Body state (world frame, SI); settable between steps.
    std::array<double, 3> position(BodyId b) const;
    std::array<double, 4> orientation(BodyId b) const;
    std::array<double, 3> linear_velocity(BodyId b) const;
    std::array<double, 3> angular_velocity(BodyId b) const;
    // (Both restart the divergence watch's energy bookkeeping.)
    void set_pose(BodyId b, const std::array<double, 3>& position, const std::array<double, 4>& orientation);
    void set_velocity(BodyId b, const std::array<double, 3>& linear, const std::array<double, 3>& angular);
    // External force at the centre of mass and torque, world frame, applied
    // in every following step until changed.
    void set_external_force(BodyId b, const std::array<double, 3>& force, const std::array<double, 3>& torque);
    // Viscous damping of a body's motion (BodyDescription::linear_damping,
    // angular_damping; N s/m, N m s/rad, >= 0), from the next step on.
    void set_damping(BodyId b, double linear, double angular);
    // A body's own friction parameters (BodyDescription::friction; {} for
    // none), from the next step on: its contacts then continue, with their
    // impulses and state, in an instance with the new values
    // (world_friction_profiles.cpp).
    void set_body_friction(BodyId b, const nlohmann::json& values);
    const nlohmann::json& body_friction(BodyId b) const;
    // Motor target velocity (rad/s or m/s) of a joint that has a motor.
    void set_motor_velocity(JointId j, double velocity);
    // Whether set_motor_velocity can drive the joint (its type has a motor).
    bool has_motor(JointId j) const;
    // Position mode's target (rad or m) and force mode's force (N m or N) of
    // a joint whose motor has them (JointMotor); taken from the next step on.
    void set_motor_position(JointId j, double position);
    void set_motor_force(JointId j, double force);

    // Removal between steps (world_removal.cpp, docs/engine.md "Changing a
    // world while it runs"): a body with the joints attached to it, a joint,
    // a cable with its attachment joints. The ids of everything else stay
    // valid (a removed id is refused by every call, with its name); its name
    // may be used again.
    void remove_body(BodyId b);
    void remove_joint(JointId j);
    void remove_cable(CableId c);
    bool body_removed(BodyId b) const { return model_.bodies.at(b).removed; }
    // Bodies on and off between steps: a disabled body stays where it is,
    // collides with nothing and its joints act no more; enabled again it
    // goes on with the velocity it had (docs/engine.md "Changing a world
    // while it runs").
    void set_body_enabled(BodyId b, bool enabled);
    bool body_enabled(BodyId b) const { return model_.bodies.at(b).enabled; }
    bool joint_removed(JointId j) const { return model_.joints.at(j).removed; }
    bool cable_removed(CableId c) const { return model_.cables.at(c).removed; }

    // Joints on and off between steps (docs/engine.md "Changing a world
    // while it runs"): a disabled joint writes no rows and starts from a
    // zero warm start when enabled again; enabling clears `broken`.
    void set_joint_enabled(JointId j, bool enabled, JointAnchor anchor = JointAnchor::as_built);
    bool joint_enabled(JointId j) const { return model_.joints.at(j).enabled; }
    bool joint_broken(JointId j) const { return model_.joints.at(j).broken; }

    // Solvers: swap between two steps; the warm start is kept.
    void set_solver(const SolverChoice& solver);
    // The registered id of the solver that takes every island (named in the
    // settings or by set_solver), or nullptr while the engine chooses per
    // island (WorldSettings::direct_islands, newton_islands,
    // large_island_rows).
    const std::string* named_solver() const;
    void set_fallback(const std::vector<SolverChoice>& fallback);
    // Sees every island problem before it is solved (WorldModel::lcp_observer); {} removes it.
    void set_lcp_observer(std::function<void(uint32_t island, const LcpProblem& problem)> observer) {
        model_.lcp_observer = std::move(observer);
    }

    // Reported after each step.
    const JointReaction& reaction(JointId j) const;
    const StepStatistics& statistics() const;
    // The free coordinate (rad or m) and its rate of a joint that has one.
    std::array<double, 2> joint_coordinate(JointId j) const;
    bool has_joint_coordinate(JointId j) const;
    // The contacts of the last step.
    const std::vector<ContactReport>& contacts() const;
    // The world's energy now; with max_joint_error, also the largest joint
    // position error now (one pass over the joints' rows gives both).
    Energy energy(double* max_joint_error = nullptr) const;
    // A joint's position error (the largest |violation| of its equality
    // rows, m or rad) in the current state, i.e. after the last step;
    // JointReaction::position_error and StepStatistics::max_joint_error are
    // the ones the last step started from. It asks the joint's plugin for
    // its rows (a disabled joint: 0).
    double joint_error_now(JointId j) const;

    // The complete state as bytes (world_snapshot.cpp), and back: a restored
    // world continues bitwise as the saved one did. The buffer fits only the
    // same world in the same binary; restore checks that and throws
    // pivot::Error, leaving the world unchanged, for anything else.
    std::vector<uint8_t> save_state() const;
    void restore_state(const uint8_t* data, size_t size);

    const WorldModel& model() const { return model_; }
    const WorldState& state() const { return state_; }

private:
    // restore_state without its rollback: may leave the world half restored
    // when it throws (restore_state undoes that).
    void read_state(const uint8_t* data, size_t size);
    // world_bodies.cpp: the body element's group (created with the first
    // body); the coordinates placing a body at a pose (node_coordinates) and
    // the velocities giving its frame a twist; the body's frame (material
    // point (0, 0, 0)) now; and the one place element indices move, when an
    // element is inserted at `element_at`.
    ElementGroup& body_group();
    void place_body(const ElementGroup& g, const double pose[7], double* q, const std::string& where) const;
    void body_velocities(const ElementGroup& g, const double* item_params, const double* q, const double twist[6],
                         double* v, const std::string& where) const;
    void body_frame(BodyId b, double pose[7], double twist[6]) const;
    void shift_elements_from(uint32_t element_at);
    uint32_t joint_group(const PluginRecord& plugin);
    // The joint plugin of a joint type (a short name stands for
    // pivot.joint.<name>); throws naming `where` and the loaded joints.
    const PluginRecord& joint_plugin(const std::string& type, const std::string& where) const;
    // Adds a joint of `plugin` between two attachments (item params packed).
    JointId insert_joint(std::string name, const PluginRecord& plugin, const std::vector<double>& params,
                         const Attachment& frame1, const Attachment& frame2);
    Attachment attach(std::string_view body, const std::array<double, 3>& point,
                      const std::array<double, 4>& frame, const std::string& joint) const;
    // Why `friction_model` cannot be solved by `solver_id` (a standard-LCP
    // model needs a solver for non-symmetric problems), or "".
    std::string nonsymmetric_pairing(const PluginRecord& friction_model, const std::string& solver_id) const;
    // Validates a friction model's parameters and creates one instance of it;
    // throws pivot::Error naming `where` when either fails.
    void probe_friction_model(const PluginRecord& plugin, const nlohmann::json& params, const std::string& where) const;
    void relayout();  // offsets of groups, elements and impulses after a model change
    // The record of a body, joint or cable that is not removed; throws
    // "<kind> '<name>': <call>: it was removed" otherwise.
    const BodyRecord& live_body(BodyId b, const char* call) const;
    const JointRecord& live_joint(JointId j, const char* call) const;
    const CableRecord& live_cable(CableId c, const char* call) const;
    const RopeRecord& live_rope(RopeId r, const char* call) const;
    // Winches of ropes: their lengths for this step (and back, when it fails).
    void reel_ropes();
    void unreel_ropes();
    // The route of rope r in world coordinates now.
    void rope_route(const RopeRecord& rope, std::vector<RopeVertex>& route) const;
    // remove_joint without the relayout (remove_body and remove_cable take
    // several joints out, then lay out once).
    void take_out_joint(JointId j);
    // Element indices above `element` move down by `count` (the elements
    // [element, element + count) were taken out; the inverse of
    // shift_elements_from).
    void unshift_elements_from(uint32_t element, uint32_t count);
    // Writes a motor target: the per-item parameter with `role` of joint j.
    void set_motor_target(JointId j, pivot_param_role role, double value, const char* call, const char* missing);
    collision::Shape make_shape(const ShapeDescription& shape, const std::string& where, bool is_static) const;
    void rebuild_material_pairs();
    // Bodies' own friction parameters (world_friction_profiles.cpp): the
    // profile of an override object (equal objects share one; probed
    // first: the schemas' check, and new values against the models of the
    // materials' pairs); the pairs this step's contacts meet that are not
    // made yet; and, after
    // a step that follows a change, the profiles no body uses any more
    // forgotten with their pairs and instances, once they outnumber those in
    // use (so that memory stays bounded however often bodies change).
    uint32_t friction_profile_of(const nlohmann::json& values);
    void check_friction_values(const nlohmann::json& values, const std::string& where) const;
    void probe_friction_values(const nlohmann::json& values, const std::string& where) const;
    void make_friction_pairs_met();
    void make_friction_pair(const std::array<uint32_t, 4>& key, const std::string& where);
    // The parameters of instance base_instance's model with two sides' own
    // values in place (packed, instance scope); `context` starts errors.
    std::vector<double> combined_friction_params(uint32_t base_instance, const nlohmann::json& own_a,
                                                 const nlohmann::json& own_b, const std::string& context) const;
    void drop_unused_friction_profiles();
    // A saved state's pairs made again in their order (restore_state): the
    // buffer's instance states and its contacts' models renumbered to the
    // instances made; throws on a buffer that does not fit this world.
    void remake_friction_pairs(const std::vector<SavedFrictionPair>& saved,
                               std::vector<std::vector<unsigned char>>& instance_states,
                               std::vector<uint32_t>& contact_models);
    bool friction_profiles_changed_ = false;
    // The material pairs, built when anything can touch (shapes, cables'
    // contact samples) and they are not yet: two cables and no shape used
    // to index an empty table.
    void ensure_material_pairs();
    // World pose, twist and (in frame_jacobian_) the 6 x nv Jacobian of
    // material point `local` of the one element of `batch`, of group g.
    void element_frame(const ElementGroup& g, const pivot_element_batch& batch, const std::array<double, 3>& local,
                       double pose[7], double twist[6]) const;
    // World pose and twist of a cable node now.
    void cable_node(CableId c, uint32_t node, double pose[7], double twist[6]) const;
    // World pose and twist of an attachment now.
    void attachment_frame(const Attachment& a, double pose[7], double twist[6]) const;
    // Where the step reads whether a body is enabled: its element held as
    // fixed or not, marked disabled, and (once sized) filtered out of the
    // broadphase (world_bodies.cpp).
    void apply_body_enabled(const BodyRecord& r);
    // The rows of a joint at the current state into now_rows_; their count.
    uint32_t joint_rows_now(const JointRecord& record) const;

    const PluginRegistry* registry_;
    WorldModel model_;
    WorldState state_;
    std::unordered_map<std::string, BodyId> body_by_name_;
    std::unordered_map<std::string, JointId> joint_by_name_;
    std::unordered_map<std::string, RopeId> rope_by_name_;
    std::unique_ptr<LcpSolverChain> solver_;
    // The islands WorldSettings::direct_islands gives to pivot.solver.direct
    // and newton_islands to pivot.solver.newton (each with the world's chain
    // behind it); null when off.
    std::unique_ptr<LcpSolverChain> direct_;
    std::unique_ptr<LcpSolverChain> newton_;
    std::unique_ptr<LcpSolverChain> large_;
    void make_island_chains();
    // The islands' threads (WorldSettings::threads): the pool, started with
    // the first step after one that had two islands or more, and for each
    // thread beyond the calling one its own clones of the chains (made again
    // when the chains change).
    std::unique_ptr<WorkerPool> pool_;
    std::vector<std::unique_ptr<LcpSolverChain>> worker_chain_owner_;
    std::vector<IslandChains> worker_chains_;
    void prepare_workers();
    std::unique_ptr<StepScratch> scratch_;  // sized at the first step after a model change
    // The GSSSS step (WorldSettings::integrator; core/integrate/
    // gssss_world_step.cpp): the world as a constrained system and the
    // integrator's own state (algorithmic accelerations and multipliers),
    // made again when the scratch is or the state was changed from outside.
    std::unique_ptr<GssssWorldStep> gssss_;
    void step_gssss();
    StepOutputs outputs_;                   // what the last step reported
    // The stages of one step at the model's timestep (step.cpp), and the
    // retry of a step a plugin discarded, in 2, 4, ... substeps
    // (discarded_step.cpp), which restores the state from `retry_backup_`
    // between attempts (assigned: no allocation after the first retry).
    void run_step_stages();
    // Disables the joints the step listed in StepOutputs::broken_joints
    // (world_joints.cpp) and counts them in the statistics.
    void break_joints();
    // Turns the winches: each reeling cable's elements get their new
    // reference length before the step (world_cables.cpp); a step that
    // fails gives them back (unreel_cables: reeled_from_ holds each cable's
    // length before the step).
    void reel_cables();
    void unreel_cables();
    std::vector<double> reeled_from_;
    std::vector<double> rope_reeled_from_;  // the same for ropes (reel_ropes)
    // Gives cable c the deployed length `length` (m), spread evenly over its elements.
    void set_cable_length(CableId c, double length);
    void step_in_substeps(const StepDiscarded& discarded);
    WorldState retry_backup_;
    // Written by const readers (attachment_frame; element_batch gathers a
    // chain's nodes into its group's buffers): a world is used by one thread
    // at a time, readers included (pivot.h's thread rules).
    mutable PluginOutput<double> frame_jacobian_;
    PluginOutput<double> reel_nodes_;  // set_cable_length: the two reference nodes' coordinates
    mutable PluginOutput<pivot_row> now_rows_;     // joint_rows_now (energy, joint_error_now)
    mutable PluginOutput<double> now_jacobians_;
    mutable std::vector<RopeVertex> rope_route_;  // energy(), rope_path(): a rope's route now
    mutable RopePath rope_path_;
};

}  // namespace pivot
