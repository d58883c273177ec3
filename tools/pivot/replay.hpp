#pragma once
// What the viewer page draws (docs/viewer.md): the scene's geometry once,
// then frames of poses, and the per-frame series the page plots. `pivot run
// --html` collects them into a replay (pivot-replay/1) embedded in the
// page; `pivot serve` streams them (pivot-live/1).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "world/world.hpp"

namespace pivot::cli {

// The header: timestep, up, bodies with their shapes, static shapes,
// cables, ropes, joints (docs/viewer.md "Replay JSON").
nlohmann::json scene_geometry(const World& world, const std::string& scene, const std::string& format);

// The world now: t, bodies (7 per body), cables, ropes, contacts (7 per
// touching contact), joints (coordinate or null).
nlohmann::json frame_of(const World& world);

// The series of the page's plots, one entry per frame: the energy at the
// frame, the largest joint error, penetration, iterations, residual and
// step time (us) of the steps since the previous frame.
class FrameSeries {
public:
    // A step's statistics (after World::step) and its wall time.
    void add_step(const World& world, double step_seconds);
    // Closes the frame at the world's time; `energy` is the world's energy now.
    void close_frame(double time, double energy);
    // The values of the steps since the last frame, then forgets them
    // (pivot serve's "stats": no series kept).
    nlohmann::json take_values(double energy);
    nlohmann::json to_json() const;

private:
    struct Since {
        double joint_error = 0.0, penetration = 0.0, residual = 0.0, step_us = 0.0;
        double iterations = 0.0;
    } since_;
    nlohmann::json time_ = nlohmann::json::array(), energy_ = nlohmann::json::array(),
                   joint_error_ = nlohmann::json::array(), penetration_ = nlohmann::json::array(),
                   iterations_ = nlohmann::json::array(), residual_ = nlohmann::json::array(),
                   step_us_ = nlohmann::json::array();
};

// The viewer page the build made (share/pivot/viewer/viewer.html beside
// the pivot binary's bin/); throws pivot::Error naming where it looked.
std::string read_viewer_page();

// The page with the replay in its `__PIVOT_REPLAY__` marker; throws when
// the page has no marker.
std::string page_with_replay(const std::string& page, const nlohmann::json& replay);

}  // namespace pivot::cli
