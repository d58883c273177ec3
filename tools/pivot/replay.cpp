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
    if (v == 0.0) return 0.0;  // and not -0.0
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
    for (BodyId b = 0; b < world.body_count(); ++b) {
        bodies.push_back({{"name", world.body_name(b)}, {"shapes", nlohmann::json::array()}});
    }
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
    since_[kJointError] = std::max(since_[kJointError], s.max_joint_error);
    since_[kResidual] = std::max(since_[kResidual], s.solver_residual_max);
    since_[kIterations] = std::max(since_[kIterations], static_cast<double>(s.solver_iterations));
    since_[kStepUs] = std::max(since_[kStepUs], 1e6 * step_seconds);
    for (const ContactReport& c : world.contacts()) since_[kPenetration] = std::max(since_[kPenetration], c.depth);
}

nlohmann::json FrameSeries::take_values(double energy) {
    nlohmann::json values = {{"energy", rounded(energy)},
                             {"joint_error", rounded(since_[kJointError])},
                             {"penetration", rounded(since_[kPenetration])},
                             {"solver_iterations", since_[kIterations]},
                             {"solver_residual", rounded(since_[kResidual])},
                             {"step_time_us", rounded(since_[kStepUs])}};
    since_ = {};
    return values;
}

void FrameSeries::close_frame(double time, double energy) {
    since_[kTime] = time;
    since_[kEnergy] = energy;
    for (int k = 0; k < kSeries; ++k) series_[k].push_back(since_[k]);
    since_ = {};
}

void FrameSeries::keep_every_other() {
    for (int k = 0; k < kSeries; ++k) {
        std::vector<double>& v = series_[k];
        const bool maximum = k != kTime && k != kEnergy;  // the rest are maxima over the frame's steps
        size_t kept = 0;
        for (size_t i = 0; i < v.size(); i += 2) {
            double value = v[i];
            if (maximum && i > 0) value = std::max(value, v[i - 1]);
            v[kept++] = value;
        }
        // A dropped last frame's maxima go to the next frame to come.
        if (maximum && v.size() % 2 == 0 && !v.empty()) since_[k] = std::max(since_[k], v.back());
        v.resize(kept);
    }
}

nlohmann::json FrameSeries::to_json() const {
    static const char* const names[kSeries] = {"time", "energy", "joint_error", "penetration",
                                               "solver_iterations", "solver_residual", "step_time_us"};
    nlohmann::json out = nlohmann::json::object();
    for (int k = 0; k < kSeries; ++k) {
        nlohmann::json values = nlohmann::json::array();
        for (double v : series_[k]) values.push_back(k == kTime || k == kIterations ? nlohmann::json(v) : rounded(v));
        out[names[k]] = std::move(values);
    }
    return out;
}

ReplayRecorder::ReplayRecorder(const World& world, const std::string& scene, uint64_t steps, double fps,
                               uint64_t max_frames)
    : header_(scene_geometry(world, scene, "pivot-replay/1")), steps_(steps) {
    // Steps per frame: at most `steps` (a tiny fps), so the rounding stays in range.
    const double per_frame = std::min(1.0 / (fps * world.settings().timestep), static_cast<double>(steps));
    every_ = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(per_frame)));
    // The first frame and ceil(steps / every) after it: at most max_frames.
    const uint64_t after_first = std::max<uint64_t>(1, max_frames - 1);
    every_ = std::max(every_, steps / after_first + (steps % after_first != 0 ? 1 : 0));
    add_frame(world);
    series_.close_frame(world.time(), world.energy().total());
}

void ReplayRecorder::after_step(const World& world, uint64_t step, double step_seconds) {
    series_.add_step(world, step_seconds);
    if (step % every_ != 0 && step != steps_) return;
    add_frame(world);
    series_.close_frame(world.time(), world.energy().total());
    // (Never at the last step: its frame is kept whatever it costs.)
    if (frame_bytes_ > kMaxFrameBytes && frames_.size() > 2 && step != steps_) {
        size_t kept = 0;
        frame_bytes_ = 0;
        for (size_t i = 0; i < frames_.size(); i += 2) {
            frame_bytes_ += frames_[i].size();
            if (kept != i) frames_[kept] = std::move(frames_[i]);  // (a self-move would empty it)
            ++kept;
        }
        frames_.resize(kept);
        series_.keep_every_other();
        every_ *= 2;
    }
}

void ReplayRecorder::add_frame(const World& world) {
    frames_.push_back(json_text(frame_of(world)));
    frame_bytes_ += frames_.back().size();
}

std::string json_text(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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

namespace {

// `text` with every '<' written \u003c, so no "</script>" in a name can
// end the page's element; the JSON reads back the same.
void write_escaped(std::ostream& out, const std::string& text) {
    size_t from = 0;
    for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', from)) {
        out.write(text.data() + from, static_cast<std::streamsize>(at - from));
        out << "\\u003c";
        from = at + 1;
    }
    out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

void ReplayRecorder::write(std::ostream& out, const std::string& page, const nlohmann::json& summary) const {
    const size_t element = page.find(std::string(kOpen) + std::string(kMarker) + "</script>");
    if (element == std::string::npos) {
        throw Error("the viewer page has no replay element (pivot-replay, __PIVOT_REPLAY__): a broken build?");
    }
    const size_t at = element + kOpen.size();
    nlohmann::json rest = header_;
    rest["series"] = series_.to_json();
    rest["summary"] = summary;
    std::string head = json_text(rest);  // an object: "{...}"
    head.back() = ',';
    out.write(page.data(), static_cast<std::streamsize>(at));
    write_escaped(out, head);
    out << "\"frames\":[";
    for (size_t k = 0; k < frames_.size(); ++k) {
        if (k > 0) out << ',';
        write_escaped(out, frames_[k]);
    }
    out << "]}";
    out.write(page.data() + at + kMarker.size(), static_cast<std::streamsize>(page.size() - at - kMarker.size()));
}

}  // namespace pivot::cli
