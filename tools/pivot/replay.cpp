// The viewer's data (replay.hpp, docs/viewer.md).
#include "replay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot::cli {

namespace {

// The whole element, not the marker alone: the page's script names the
// marker too (it tells a replay from a live page by it).
constexpr std::string_view kOpen = R"(<script id="pivot-replay" type="application/json">)";
constexpr std::string_view kMarker = "__PIVOT_REPLAY__";

// Seven significant digits: 10 um on a 10 m scene, far below a pixel, and
// a third of the bytes of the shortest exact text. Through the decimal
// text, so the value written is the 7-digit one (a scaled round would
// leave binary noise digits). Not finite: null.
nlohmann::json rounded(double v) {
    if (!std::isfinite(v)) return nullptr;
    char text[32];
    const auto end = fmt::format_to_n(text, sizeof(text) - 1, "{:.7g}", v).out;
    *end = '\0';
    return std::strtod(text, nullptr);
}

template <size_t N>
nlohmann::json numbers(const std::array<double, N>& values) {
    nlohmann::json out = nlohmann::json::array();
    for (double v : values) out.push_back(rounded(v));
    return out;
}

nlohmann::json numbers(const collision::Vec3& v) { return {rounded(v.x()), rounded(v.y()), rounded(v.z())}; }

nlohmann::json shape_json(const collision::Shape& s) {
    nlohmann::json out;
    switch (s.type) {
        case collision::ShapeType::sphere: out = {{"type", "sphere"}, {"radius", s.radius}}; break;
        case collision::ShapeType::box: out = {{"type", "box"}, {"size", numbers(s.size)}}; break;
        case collision::ShapeType::capsule:
            out = {{"type", "capsule"}, {"radius", s.radius}, {"length", s.length}};
            break;
        case collision::ShapeType::cylinder:
            out = {{"type", "cylinder"}, {"radius", s.radius}, {"length", s.length}};
            break;
        case collision::ShapeType::plane:
            return {{"type", "plane"}, {"normal", numbers(s.normal)}, {"offset", s.offset}};
    }
    const collision::Quat& q = s.local.orientation;
    out["position"] = numbers(s.local.position);
    out["orientation"] = {rounded(q.w()), rounded(q.x()), rounded(q.y()), rounded(q.z())};
    return out;
}

}  // namespace

nlohmann::json scene_geometry(const World& world, const std::string& scene, const std::string& format) {
    const WorldModel& model = world.model();
    const collision::Vec3 g(model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]);
    const collision::Vec3 up = g.norm() > 0.0 ? collision::Vec3(-g / g.norm()) : collision::Vec3::UnitZ();
    nlohmann::json bodies = nlohmann::json::array();
    for (BodyId b = 0; b < world.body_count(); ++b) bodies.push_back({{"name", world.body_name(b)}, {"shapes", nlohmann::json::array()}});
    nlohmann::json statics = nlohmann::json::array();
    for (const collision::Shape& s : model.shapes) {
        if (s.body == collision::kStaticBody) {
            statics.push_back(shape_json(s));
        } else if (static_cast<uint32_t>(s.body) < bodies.size()) {
            bodies[static_cast<size_t>(s.body)]["shapes"].push_back(shape_json(s));
        }
    }
    nlohmann::json cables = nlohmann::json::array();
    for (CableId c = 0; c < world.cable_count(); ++c) {
        cables.push_back({{"name", world.cable_name(c)}, {"radius", model.cables[c].radius},
                          {"nodes", world.cable_node_count(c)}});
    }
    nlohmann::json ropes = nlohmann::json::array();
    for (RopeId r = 0; r < world.rope_count(); ++r) ropes.push_back({{"name", world.rope_name(r)}});
    nlohmann::json joints = nlohmann::json::array();
    for (JointId j = 0; j < world.joint_count(); ++j) joints.push_back({{"name", world.joint_name(j)}});
    return {{"format", format}, {"scene", scene}, {"timestep", model.settings.timestep}, {"up", numbers(up)},
            {"bodies", bodies}, {"static_shapes", statics}, {"cables", cables}, {"ropes", ropes},
            {"joints", joints}};
}

nlohmann::json frame_of(const World& world) {
    nlohmann::json bodies = nlohmann::json::array();
    for (BodyId b = 0; b < world.body_count(); ++b) {
        if (world.body_removed(b)) {
            for (int k = 0; k < 7; ++k) bodies.push_back(nullptr);
            continue;
        }
        for (double v : world.position(b)) bodies.push_back(rounded(v));
        for (double v : world.orientation(b)) bodies.push_back(rounded(v));
    }
    nlohmann::json cables = nlohmann::json::array();
    for (CableId c = 0; c < world.cable_count(); ++c) {
        if (world.cable_removed(c)) {
            cables.push_back(nullptr);
            continue;
        }
        nlohmann::json nodes = nlohmann::json::array();
        for (uint32_t n = 0; n < world.cable_node_count(c); ++n) {
            for (double v : world.cable_node_position(c, n)) nodes.push_back(rounded(v));
        }
        cables.push_back(std::move(nodes));
    }
    nlohmann::json ropes = nlohmann::json::array();
    RopePath path;
    for (RopeId r = 0; r < world.rope_count(); ++r) {
        if (world.rope_removed(r)) {
            ropes.push_back(nullptr);
            continue;
        }
        world.rope_path(r, path);
        // Where it arrives at and leaves each route point: the polyline of
        // its straight spans (the arcs round the sheaves drawn as chords).
        nlohmann::json points = nlohmann::json::array();
        for (size_t k = 0; k < path.arrive.size(); ++k) {
            for (const Vec3d* p : {&path.arrive[k], &path.leave[k]}) {
                for (int i = 0; i < 3; ++i) points.push_back(rounded((*p)[i]));
            }
        }
        ropes.push_back(std::move(points));
    }
    nlohmann::json contacts = nlohmann::json::array();
    for (const ContactReport& c : world.contacts()) {
        if (c.depth < 0.0 && c.normal_force == 0.0) continue;  // speculative: not touching
        for (double v : c.point) contacts.push_back(rounded(v));
        for (double v : c.normal) contacts.push_back(rounded(v));
        contacts.push_back(rounded(c.normal_force));
    }
    nlohmann::json joints = nlohmann::json::array();
    for (JointId j = 0; j < world.joint_count(); ++j) {
        joints.push_back(!world.joint_removed(j) && world.has_joint_coordinate(j)
                             ? rounded(world.joint_coordinate(j)[0])
                             : nlohmann::json(nullptr));
    }
    return {{"t", world.time()}, {"bodies", std::move(bodies)}, {"cables", std::move(cables)},
            {"ropes", std::move(ropes)}, {"contacts", std::move(contacts)}, {"joints", std::move(joints)}};
}

void FrameSeries::add_step(const World& world, double step_seconds) {
    const StepStatistics& s = world.statistics();
    since_.joint_error = std::max(since_.joint_error, s.max_joint_error);
    since_.residual = std::max(since_.residual, s.solver_residual_max);
    since_.iterations = std::max(since_.iterations, static_cast<double>(s.solver_iterations));
    since_.step_us = std::max(since_.step_us, 1e6 * step_seconds);
    for (const ContactReport& c : world.contacts()) since_.penetration = std::max(since_.penetration, c.depth);
}

nlohmann::json FrameSeries::take_values(double energy) {
    nlohmann::json values = {{"energy", rounded(energy)},
                             {"joint_error", rounded(since_.joint_error)},
                             {"penetration", rounded(since_.penetration)},
                             {"solver_iterations", since_.iterations},
                             {"solver_residual", rounded(since_.residual)},
                             {"step_time_us", rounded(since_.step_us)}};
    since_ = Since{};
    return values;
}

void FrameSeries::close_frame(double time, double energy) {
    time_.push_back(time);
    energy_.push_back(rounded(energy));
    joint_error_.push_back(rounded(since_.joint_error));
    penetration_.push_back(rounded(since_.penetration));
    iterations_.push_back(since_.iterations);
    residual_.push_back(rounded(since_.residual));
    step_us_.push_back(rounded(since_.step_us));
    since_ = Since{};
}

nlohmann::json FrameSeries::to_json() const {
    return {{"time", time_},           {"energy", energy_},         {"joint_error", joint_error_},
            {"penetration", penetration_}, {"solver_iterations", iterations_}, {"solver_residual", residual_},
            {"step_time_us", step_us_}};
}

std::string read_viewer_page() {
    std::filesystem::path page;
    if (const char* own = std::getenv("PIVOT_VIEWER_PAGE"); own != nullptr && *own != '\0') {
        page = own;  // a page of one's own (docs/viewer.md), or a test's
    } else {
        std::error_code ec;
        const std::filesystem::path program = boost::dll::program_location(ec);
        page = ec ? std::filesystem::path(PIVOT_RELATIVE_VIEWER_PAGE)
                  : (program.parent_path() / PIVOT_RELATIVE_VIEWER_PAGE).lexically_normal();
    }
    std::ifstream in(page, std::ios::binary);
    if (!in) {
        throw Error(fmt::format("{}: the viewer page is missing (the build makes it when configured with "
                                "PIVOT_VIEWER=ON, which needs node and npm: docs/viewer.md)",
                                page.string()));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string page_with_replay(const std::string& page, const nlohmann::json& replay) {
    const size_t element = page.find(std::string(kOpen) + std::string(kMarker) + "</script>");
    if (element == std::string::npos) {
        throw Error("the viewer page has no replay element (pivot-replay, __PIVOT_REPLAY__): a broken build?");
    }
    const size_t at = element + kOpen.size();
    // Every '<' escaped, so no "</script>" in a name can end the element;
    // the JSON reads back the same.
    const std::string json = replay.dump();
    std::string data;
    data.reserve(json.size() + json.size() / 16);
    for (char c : json) {
        if (c == '<') {
            data += "\\u003c";
        } else {
            data += c;
        }
    }
    std::string out;
    out.reserve(page.size() + data.size());
    out.append(page, 0, at).append(data).append(page, at + kMarker.size(), std::string::npos);
    return out;
}

}  // namespace pivot::cli
