// A world's ropes (docs/engine.md "Ropes and sheaves"): massless ropes
// reeved over sheaves on bodies, each one row of the step
// (core/step/rope_rows.cpp), with a winch that changes its length.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "step/step_scratch.hpp"
#include "world/frame_math.hpp"
#include "world/physical_limits.hpp"
#include "world/world.hpp"

namespace pivot {

using namespace frame_math;  // the vector and quaternion helpers of world building

namespace {

// Whether segments a0-a1 and b0-b1, projected on the plane normal to
// `axis`, cross (touching at an end does not count).
bool segments_cross_in_plane(const Vec3d& a0, const Vec3d& a1, const Vec3d& b0, const Vec3d& b1, const Vec3d& axis) {
    const Vec3d u = perpendicular(axis);
    const Vec3d w = cross(axis, u);
    auto project = [&](const Vec3d& p) { return std::array<double, 2>{dot(p, u), dot(p, w)}; };
    const auto p0 = project(a0), p1 = project(a1), q0 = project(b0), q1 = project(b1);
    auto side = [](const std::array<double, 2>& o, const std::array<double, 2>& a, const std::array<double, 2>& b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    };
    const double d1 = side(p0, p1, q0), d2 = side(p0, p1, q1), d3 = side(q0, q1, p0), d4 = side(q0, q1, p1);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

}  // namespace

const RopeRecord& World::live_rope(RopeId r, const char* call) const {
    const RopeRecord& record = model_.ropes.at(r);
    if (record.removed) throw Error(fmt::format("rope '{}': {}: it was removed", record.name, call));
    return record;
}

RopeId World::rope(std::string_view name) const {
    auto it = rope_by_name_.find(std::string(name));
    if (it == rope_by_name_.end()) throw Error(fmt::format("no rope named '{}'", name));
    return it->second;
}

RopeId World::add_rope(const RopeDescription& rope) {
    const std::string where = fmt::format("rope '{}'", rope.name);
    if (rope.name.empty()) throw Error("rope: name must not be empty");
    if (rope_by_name_.count(rope.name)) throw Error(where + ": name: another rope already has this name");
    const size_t n = rope.route.size();
    if (n < 2 || n > 1000) throw Error(fmt::format("{}: route: must have 2 to 1000 points, got {}", where, n));
    RopeRecord record;
    record.name = rope.name;
    std::vector<uint32_t> bodies;  // distinct elements the rope passes
    for (size_t k = 0; k < n; ++k) {
        const RopePointDescription& point = rope.route[k];
        const std::string at = fmt::format("{}: route[{}]", where, k);
        if (!all_finite(point.point.data(), 3)) throw Error(at + ": point: must be 3 finite numbers");
        check_position(point.point, at, "point");
        if (!(point.radius >= 0.0) || !std::isfinite(point.radius) || point.radius > PhysicalLimits::max_shape_size) {
            throw Error(fmt::format("{}: radius: must be a number of m in [0, {}], got {}", at,
                                    PhysicalLimits::max_shape_size, point.radius));
        }
        if ((k == 0 || k + 1 == n) && point.radius != 0.0) {
            throw Error(fmt::format("{}: radius: the rope's ends are points (radius 0), got {}", at, point.radius));
        }
        RopePoint p;
        p.radius = point.radius;
        // The sheave's frame: the world's orientation as the body is now, so
        // that its material-frame axis is the rotation offset applied to the
        // given world axis.
        p.at = attach(point.body, point.point, {1, 0, 0, 0}, at + ": body");
        const Vec3d axis = point.radius > 0.0 ? normalized(point.axis, at + ": axis") : Vec3d{0, 0, 1};
        const Mat3 offset = rotation(p.at.local_rotation);
        for (int i = 0; i < 3; ++i) {
            p.axis[i] = offset[i][0] * axis[0] + offset[i][1] * axis[1] + offset[i][2] * axis[2];
        }
        if (p.at.element != Attachment::kWorld &&
            std::find(bodies.begin(), bodies.end(), p.at.element) == bodies.end()) {
            bodies.push_back(p.at.element);
        }
        record.route.push_back(p);
    }
    if (bodies.size() > RopeRecord::kMaxBodies) {
        throw Error(fmt::format("{}: route: passes {} distinct bodies; a rope may pass at most {}", where,
                                bodies.size(), RopeRecord::kMaxBodies));
    }
    // Its path now: every sheave must be reachable by a tangent.
    std::vector<RopeVertex> route;
    rope_route(record, route);
    RopePath path;
    pivot::rope_path(route, path);
    if (path.degenerate) {
        throw Error(where + ": route: two consecutive points coincide, or a point lies within the circle of the "
                            "sheave next to it (the rope cannot run tangent to it)");
    }
    // As built, the rope must lie on each sheave: it wraps it by a positive
    // angle, and its two straight parts next to the sheave do not cross in
    // the sheave's plane (a rope wound the wrong way round a sheave - its
    // axis given reversed - goes round the long way and through itself).
    for (size_t k = 1; k + 1 < n; ++k) {
        const RopeVertex& s = route[k];
        if (s.radius <= 0.0) continue;
        const bool crossing = segments_cross_in_plane(path.leave[k - 1], path.arrive[k], path.leave[k],
                                                      path.arrive[k + 1], s.axis);
        if (path.wrap[k] < -1e-9 || crossing) {
            throw Error(fmt::format("{}: route[{}]: axis: the rope would wrap this sheave by {:.1f} degrees{}; it "
                                    "winds counterclockwise about the axis as it runs from the first route point "
                                    "to the last: reverse the axis",
                                    where, k, path.wrap[k] * 180.0 / 3.14159265358979323846,
                                    crossing ? " and cross itself" : ""));
        }
    }
    const double length = rope.length == 0.0 ? path.length : rope.length;
    if (!(length > 1e-9) || !std::isfinite(length) || length > PhysicalLimits::max_coordinate) {
        throw Error(fmt::format("{}: length: must be a positive number of m (0: the route's length), got {}", where,
                                rope.length));
    }
    if (!(rope.stiffness >= 0.0) || !std::isfinite(rope.stiffness)) {
        throw Error(fmt::format("{}: stiffness: must be a finite number >= 0 N (EA; 0 = inextensible), got {}", where,
                                rope.stiffness));
    }
    if (!(rope.damping >= 0.0) || !std::isfinite(rope.damping)) {
        throw Error(fmt::format("{}: damping: must be a finite number >= 0 N s/m, got {}", where, rope.damping));
    }
    if (rope.damping > 0.0 && rope.stiffness == 0.0) {
        throw Error(where + ": damping: needs a stiffness (an inextensible rope has nothing to damp)");
    }
    const auto [min_length, max_length] = winch_range(length, rope.min_length, rope.max_length, where);
    check_reel_speed(rope.reel_speed, where);
    record.length = length;
    record.stiffness = rope.stiffness;
    record.damping = rope.damping;
    record.reel_speed = rope.reel_speed;
    record.min_length = min_length;
    record.max_length = max_length;
    const auto id = static_cast<RopeId>(model_.ropes.size());
    model_.ropes.push_back(std::move(record));
    state_.rope_tensions.push_back(0.0);
    rope_by_name_[rope.name] = id;
    scratch_.reset();  // the step's rows are sized again
    return id;
}

RopeVertex rope_vertex(const RopePoint& p, const double* material_pose) {
    if (material_pose == nullptr) return RopeVertex{p.at.local_point, p.axis, p.radius};  // fixed in the world
    const Quatd orientation = {material_pose[3], material_pose[4], material_pose[5], material_pose[6]};
    return RopeVertex{{material_pose[0], material_pose[1], material_pose[2]}, rotate(orientation, p.axis), p.radius};
}

void World::rope_route(const RopeRecord& rope, std::vector<RopeVertex>& route) const {
    route.resize(rope.route.size());
    for (size_t k = 0; k < rope.route.size(); ++k) {
        const RopePoint& p = rope.route[k];
        if (p.at.element == Attachment::kWorld) {
            route[k] = rope_vertex(p, nullptr);
            continue;
        }
        // The element's material frame at the point (its rotation offset
        // left out: the axis is kept in the material frame).
        Attachment material = p.at;
        material.local_rotation = {1, 0, 0, 0};
        double pose[7], twist[6];
        attachment_frame(material, pose, twist);
        route[k] = rope_vertex(p, pose);
    }
}

void World::rope_path(RopeId r, RopePath& path) const {
    rope_route(live_rope(r, "path"), rope_route_);  // the world's buffer: no allocation per call
    pivot::rope_path(rope_route_, path);
}

double World::rope_tension(RopeId r) const {
    live_rope(r, "tension");
    return state_.rope_tensions[r];
}

void World::set_rope_reel_speed(RopeId r, double speed) {
    check_reel_speed(speed, fmt::format("rope '{}': set_reel_speed", live_rope(r, "set_reel_speed").name));
    model_.ropes[r].reel_speed = speed;
}

void World::remove_rope(RopeId r) {
    RopeRecord& record = model_.ropes[r];
    live_rope(r, "remove");
    rope_by_name_.erase(record.name);
    record.removed = true;
    record.route.clear();
    state_.rope_tensions[r] = 0.0;
    scratch_.reset();
}

// The winch: the length for this step, within its range. Like a cable's,
// its work is not counted by the divergence watch, which starts again.
void World::reel_ropes() {
    const double h = model_.settings.timestep;
    rope_reeled_from_.resize(model_.ropes.size());  // grows with the ropes only
    for (uint32_t r = 0; r < model_.ropes.size(); ++r) {
        RopeRecord& rope = model_.ropes[r];
        rope_reeled_from_[r] = rope.length;
        if (rope.removed || rope.reel_speed == 0.0) continue;
        const double length = std::clamp(rope.length + h * rope.reel_speed, rope.min_length, rope.max_length);
        if (length == rope.length) continue;  // stopped at its limit
        rope.length = length;
        state_.energy_watch.valid = false;
    }
}

void World::unreel_ropes() {
    for (uint32_t r = 0; r < model_.ropes.size() && r < rope_reeled_from_.size(); ++r) {
        model_.ropes[r].length = rope_reeled_from_[r];
    }
}

}  // namespace pivot
