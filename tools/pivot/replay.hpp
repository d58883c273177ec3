#pragma once
// What the viewer page draws (docs/viewer.md): the scene's geometry once,
// then frames of poses, and the per-frame series the page plots. `pivot run
// --html` collects them into a replay (pivot-replay/1) embedded in the
// page; `pivot serve` streams them (pivot-live/1).
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

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
    // Keeps every other frame (0, 2, 4, ...); a dropped frame's maxima go
    // to the frame after it, which covers its steps from now on.
    void keep_every_other();
    nlohmann::json to_json() const;

private:
    enum { kTime, kEnergy, kJointError, kPenetration, kIterations, kResidual, kStepUs, kSeries };
    std::array<double, kSeries> since_{};
    std::array<std::vector<double>, kSeries> series_;
};

// `pivot run --html`: the replay as the run goes, its frames as JSON text
// (a JSON tree of them would take several times the memory) within a
// budget: past it, every other frame is dropped and frames are taken half
// as often, so a long run of a large world stays bounded and covers the
// whole run.
class ReplayRecorder {
public:
    static constexpr size_t kMaxFrameBytes = size_t{128} << 20;

    // A frame every round(1 / (fps h)) steps, at most `max_frames` (>= 2)
    // in all, the initial state and the last step always.
    ReplayRecorder(const World& world, const std::string& scene, uint64_t steps, double fps, uint64_t max_frames);
    // After step `step` (1 .. steps) and its wall time.
    void after_step(const World& world, uint64_t step, double step_seconds);
    // The page with the replay (`summary`: the run's) in its marker.
    void write(std::ostream& out, const std::string& page, const nlohmann::json& summary) const;
    size_t frame_count() const { return frames_.size(); }

private:
    void add_frame(const World& world);

    nlohmann::json header_;
    std::vector<std::string> frames_;
    size_t frame_bytes_ = 0;
    FrameSeries series_;
    uint64_t steps_ = 0;
    uint64_t every_ = 1;
};

// JSON text whatever bytes a string in it holds (invalid UTF-8, from a file
// name say, becomes U+FFFD instead of an exception).
std::string json_text(const nlohmann::json& value);

// The viewer page the build made (share/pivot/viewer/viewer.html beside
// the pivot binary's bin/); throws pivot::Error naming where it looked.
std::string read_viewer_page();


}  // namespace pivot::cli
