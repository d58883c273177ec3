// `pivot run SCENE.json`: simulate a scene file and write its trajectory,
// contacts, run summary and (on request) every island problem (docs/cli.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "command_line.hpp"
#include "commands.hpp"
#include "common/error.hpp"
#include "lcp/lcp_file.hpp"
#include "replay.hpp"
#include "scene/scene_loader.hpp"

namespace pivot::cli {

namespace {

const char* kUsage =
    "usage: pivot run SCENE.json [options]\n"
    "\n"
    "Simulates a scene file (pivot-scene/1, see docs/scene-format.md).\n"
    "\n"
    "  --duration T           simulated time in s (default 1)\n"
    "  --steps N              number of steps instead of --duration\n"
    "  --solver ID            overrides the scene's solver (lemke, dantzig, pgs or a plugin id)\n"
    "  --out FILE.csv         trajectory: time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
    "                         (a cable's nodes as bodies CABLE#0, CABLE#1, ...)\n"
    "  --every K              keep every K-th step in --out, --contacts, --joints and --ropes (default 1;\n"
    "                         t = 0 always in --out)\n"
    "  --contacts FILE.csv    contacts: time,body1,body2,px,py,pz,nx,ny,nz,depth,fn,ft1,ft2\n"
    "  --joints FILE.csv      joints: time,joint,coordinate,rate,motor_effort,fx,fy,fz,tx,ty,tz,error\n"
    "  --ropes FILE.csv       ropes: time,rope,length,path_length,tension\n"
    "  --summary FILE.json    run summary (steps, times, solver, joint error, penetration, energy)\n"
    "  --html FILE.html       a self-contained page that plays the run back in 3-D and plots it\n"
    "                         (docs/viewer.md); opens offline in any browser\n"
    "  --html-fps F           frames kept per second of simulated time in --html (default 60)\n"
    "  --html-frames N        at most N >= 2 frames in --html (default 20000; longer runs keep fewer)\n"
    "  --dump-lcp DIR         writes every island problem as DIR/stepNNNNNN_islandNNNN.txt (pivot-lcp/1)\n"
    "  --quiet                prints nothing but errors\n"
    "  --plugins PATH         more plugin files or folders (repeatable)\n"
    "  --log-level LEVEL      trace, debug, info, warning, error, off\n"
    "\n"
    "Exit 0 on success; 1 when the scene is bad, a plugin is missing or a step\n"
    "fails (the message names the file and the JSON path); 2 on a usage error.\n";

// A CSV field: quoted (RFC 4180) only when it has to be, so plain names stay plain.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// The shortest text that reads back as the same double: the file holds the
// state bit for bit, without the noise digits of a fixed 17.
std::string number(double v) { return fmt::format("{}", v); }

uint64_t parse_count(const std::string& flag, const std::string& text) {
    return parse_whole(flag, text, 1, UINT64_MAX, "a whole number > 0");
}

std::ofstream open_output(const std::string& file) {
    std::ofstream out(file);
    if (!out) throw Error(fmt::format("{}: cannot be written", file));
    return out;
}

struct RunFiles {
    std::optional<std::ofstream> trajectory;
    std::optional<std::ofstream> contacts;
    std::optional<std::ofstream> joints;
    std::optional<std::ofstream> ropes;
};

void write_trajectory_rows(const World& world, std::ofstream& out) {
    const std::string t = number(world.time());
    for (BodyId b = 0; b < world.body_count(); ++b) {
        if (world.body_removed(b)) continue;
        const auto x = world.position(b);
        const auto q = world.orientation(b);
        const auto v = world.linear_velocity(b);
        const auto w = world.angular_velocity(b);
        out << t << ',' << csv_field(world.body_name(b));
        for (double value : {x[0], x[1], x[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]}) {
            out << ',' << number(value);
        }
        out << '\n';
    }
    // ANCF cable nodes (docs/cli.md): "<cable>#<i>", the centreline position and
    // velocity at node i; a node has no orientation or spin of its own.
    for (CableId c = 0; c < world.cable_count(); ++c) {
        if (world.cable_removed(c)) continue;
        const std::string& name = world.cable_name(c);
        for (uint32_t i = 0; i < world.cable_node_count(c); ++i) {
            const auto x = world.cable_node_position(c, i);
            const auto v = world.cable_node_velocity(c, i);
            out << t << ',' << csv_field(fmt::format("{}#{}", name, i));
            for (double value : {x[0], x[1], x[2]}) out << ',' << number(value);
            out << ",1,0,0,0";
            for (double value : {v[0], v[1], v[2]}) out << ',' << number(value);
            out << ",0,0,0\n";
        }
    }
}

// A contact is written when it touches or carries a force; the speculative
// ones (a gap within the contact margin, no force) are left out.
bool active(const ContactReport& c) { return c.depth >= 0.0 || c.normal_force != 0.0; }

void write_contact_rows(const World& world, std::ofstream& out) {
    const std::string t = number(world.time());
    // A body by name, a cable by its name (the contact is on its centreline
    // between two nodes), -1 on both: the world (static shapes). An index
    // that names nothing is written "unknown" rather than read out of range.
    auto name = [&](int32_t body, int32_t cable) {
        if (cable >= 0) {
            if (static_cast<uint32_t>(cable) >= world.cable_count()) return std::string("unknown");
            return csv_field(world.cable_name(static_cast<CableId>(cable)));
        }
        if (body < 0) return std::string("world");
        if (static_cast<uint32_t>(body) >= world.body_count()) return std::string("unknown");
        return csv_field(world.body_name(static_cast<BodyId>(body)));
    };
    for (const ContactReport& c : world.contacts()) {
        if (!active(c)) continue;
        out << t << ',' << name(c.body1, c.cable1) << ',' << name(c.body2, c.cable2);
        for (double value : {c.point[0], c.point[1], c.point[2], c.normal[0], c.normal[1], c.normal[2], c.depth,
                             c.normal_force, c.friction_force[0], c.friction_force[1]}) {
            out << ',' << number(value);
        }
        out << '\n';
    }
}

// Every joint after a step (docs/cli.md): its free coordinate and rate
// (empty for a joint without one), its motor's effort along the coordinate
// (0 without a motor), its reaction on body 2 and its position error.
void write_joint_rows(const World& world, std::ofstream& out) {
    const std::string t = number(world.time());
    for (JointId j = 0; j < world.joint_count(); ++j) {
        if (world.joint_removed(j)) continue;
        out << t << ',' << csv_field(world.joint_name(j)) << ',';
        if (world.has_joint_coordinate(j)) {
            const auto c = world.joint_coordinate(j);
            out << number(c[0]) << ',' << number(c[1]);
        } else {
            out << ',';
        }
        const JointReaction& r = world.reaction(j);
        for (double value : {r.motor_effort, r.force[0], r.force[1], r.force[2], r.torque[0], r.torque[1],
                             r.torque[2], r.position_error}) {
            out << ',' << number(value);
        }
        out << '\n';
    }
}

void write_rope_rows(const World& world, std::ofstream& out) {
    const std::string t = number(world.time());
    RopePath path;
    for (RopeId r = 0; r < world.rope_count(); ++r) {
        if (world.rope_removed(r)) continue;
        world.rope_path(r, path);
        out << t << ',' << csv_field(world.rope_name(r)) << ',' << number(world.rope_length(r)) << ','
            << number(path.length) << ',' << number(world.rope_tension(r)) << '\n';
    }
}

// The progress bar on a terminal: redrawn at most every 0.1 s of wall time.
class ProgressBar {
public:
    explicit ProgressBar(uint64_t steps) : steps_(steps) {}
    void update(uint64_t done, double time) {
        const auto now = std::chrono::steady_clock::now();
        if (done != steps_ && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        constexpr int kWidth = 40;
        const int filled = static_cast<int>(kWidth * done / std::max<uint64_t>(steps_, 1));
        fmt::print(stderr, "\r[{}{}] {:3d}%  t = {:.4g} s", std::string(static_cast<size_t>(filled), '#'),
                   std::string(static_cast<size_t>(kWidth - filled), ' '),
                   static_cast<int>(100 * done / std::max<uint64_t>(steps_, 1)), time);
        if (done == steps_) fmt::print(stderr, "\n");
    }

private:
    uint64_t steps_;
    std::chrono::steady_clock::time_point last_{};
};

double percentile(std::vector<double> sorted_values, double p) {
    if (sorted_values.empty()) return 0.0;
    const size_t k = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted_values.size()))) - 1;
    return sorted_values[std::min(k, sorted_values.size() - 1)];
}

int run(Arguments& args) {
    const CommonOptions common = read_common_options(args);
    const auto duration = args.option("--duration");
    const auto steps_text = args.option("--steps");
    const auto solver = args.option("--solver");
    const auto out_file = args.option("--out");
    const auto every_text = args.option("--every");
    const auto contacts_file = args.option("--contacts");
    const auto joints_file = args.option("--joints");
    const auto ropes_file = args.option("--ropes");
    const auto summary_file = args.option("--summary");
    const auto dump_dir = args.option("--dump-lcp");
    const auto html_file = args.option("--html");
    const auto html_fps_text = args.option("--html-fps");
    const auto html_frames_text = args.option("--html-frames");
    const bool quiet = args.flag("--quiet");
    const auto files = args.positionals();
    if (files.size() != 1) throw UsageError{"expected exactly one SCENE.json"};
    if (duration && steps_text) throw UsageError{"--duration and --steps exclude each other"};
    const double duration_s = duration ? parse_positive("--duration", *duration) : 1.0;
    const uint64_t fixed_steps = steps_text ? parse_count("--steps", *steps_text) : 0;  // 0: by duration
    const uint64_t every = every_text ? parse_count("--every", *every_text) : 1;
    if ((html_fps_text || html_frames_text) && !html_file) throw UsageError{"--html-fps and --html-frames need --html"};
    const double html_fps = html_fps_text ? parse_positive("--html-fps", *html_fps_text) : 60.0;
    const uint64_t html_frames = html_frames_text ? parse_count("--html-frames", *html_frames_text) : 20'000;
    if (html_frames < 2) throw UsageError{"--html-frames needs at least 2 (the first and the last step)"};
    const std::string& scene_file = files[0];

    PluginRegistry registry;
    if (!load_plugins(registry, common)) return kUserError;
    uint64_t step = 0;
    try {
        SceneOptions options;
        options.solver = solver;
        std::unique_ptr<World> world = load_scene_file(registry, scene_file, options);
        const double h = world->settings().timestep;
        // Enough steps to cover the duration; the slack keeps 1 s / 1 ms at 1000, not 1001.
        // At most kMaxSteps (each step's time is kept for the percentiles:
        // 8 bytes a step).
        constexpr uint64_t kMaxSteps = 100'000'000;
        const double wanted = fixed_steps > 0 ? static_cast<double>(fixed_steps) : std::ceil(duration_s / h - 1e-9);
        if (!(wanted <= static_cast<double>(kMaxSteps))) {
            throw UsageError{fmt::format("{} gives {:.3g} steps of {} s; at most {} steps per run",
                                         fixed_steps > 0 ? "--steps" : "--duration", wanted, h, kMaxSteps)};
        }
        const auto steps = static_cast<uint64_t>(std::max(1.0, wanted));

        RunFiles out;
        if (out_file) {
            out.trajectory = open_output(*out_file);
            *out.trajectory << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
            write_trajectory_rows(*world, *out.trajectory);
        }
        if (contacts_file) {
            out.contacts = open_output(*contacts_file);
            *out.contacts << "time,body1,body2,px,py,pz,nx,ny,nz,depth,fn,ft1,ft2\n";
        }
        if (joints_file) {
            out.joints = open_output(*joints_file);
            *out.joints << "time,joint,coordinate,rate,motor_effort,fx,fy,fz,tx,ty,tz,error\n";
        }
        if (ropes_file) {
            out.ropes = open_output(*ropes_file);
            *out.ropes << "time,rope,length,path_length,tension\n";
        }
        if (dump_dir) {
            std::error_code ec;
            std::filesystem::create_directories(*dump_dir, ec);
            if (ec || !std::filesystem::is_directory(*dump_dir)) {
                throw Error(fmt::format("{}: cannot create the folder for --dump-lcp: {}", *dump_dir,
                                        ec ? ec.message() : "not a folder"));
            }
            // Zero-padded so that the names sort by step, then island.
            const int width = std::max<int>(6, static_cast<int>(std::to_string(steps).size()));
            world->set_lcp_observer([&, width](uint32_t island, const LcpProblem& problem) {
                write_lcp_file(problem, std::filesystem::path(*dump_dir) /
                                            fmt::format("step{:0{}}_island{:04}.txt", step, width, island));
            });
        }

        // The replay (docs/viewer.md): the page first, so a missing one
        // fails before the run.
        std::string page;
        std::optional<ReplayRecorder> replay;
        if (html_file) {
            page = read_viewer_page();
            open_output(*html_file);  // writable: said now, not after the run
            replay.emplace(*world, scene_file, steps, html_fps, html_frames);
        }

        const double energy_initial = world->energy().total();
        const double time_initial = world->time();
        std::vector<double> step_seconds;
        step_seconds.reserve(std::min<uint64_t>(steps, 1u << 20));
        uint64_t failures = 0, fallbacks = 0, iterations = 0, budget_limited = 0;
        double residual_max = 0.0, joint_error_max = 0.0, penetration_max = 0.0, energy_excess_max = 0.0;
        uint64_t diverging = 0;
        double diverging_first = -1.0;  // s, the first step reported diverging
        uint64_t contacts_dropped = 0, dropping_steps = 0;  // past the step's memory cap (docs/engine.md)
        uint64_t substepped_steps = 0;  // steps a plugin discarded, taken again in substeps
        uint64_t joints_broken = 0;
        double broken_first = -1.0;  // s, the first step in which a joint broke
        uint32_t substeps_max = 1;
        const bool progress = !quiet && isatty(fileno(stderr));
        ProgressBar bar(steps);
        for (step = 1; step <= steps; ++step) {
            const auto start = std::chrono::steady_clock::now();
            world->step();
            step_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            if (replay) replay->after_step(*world, step, step_seconds.back());
            const StepStatistics& s = world->statistics();
            failures += s.solver_failures;
            fallbacks += s.fallbacks;
            budget_limited += s.budget_limited;
            contacts_dropped += s.contacts_dropped;
            dropping_steps += s.contacts_dropped > 0 ? 1 : 0;
            substepped_steps += s.substeps > 1 ? 1 : 0;
            substeps_max = std::max(substeps_max, s.substeps);
            if (s.joints_broken > 0 && joints_broken == 0) broken_first = world->time();
            joints_broken += s.joints_broken;
            iterations += s.solver_iterations;
            residual_max = std::max(residual_max, s.solver_residual_max);
            joint_error_max = std::max(joint_error_max, s.max_joint_error);
            energy_excess_max = std::max(energy_excess_max, s.energy_excess);
            if (s.diverging) {
                if (diverging == 0) diverging_first = world->time();
                ++diverging;
            }
            for (const ContactReport& c : world->contacts()) penetration_max = std::max(penetration_max, c.depth);
            if (step % every == 0) {
                if (out.trajectory) write_trajectory_rows(*world, *out.trajectory);
                if (out.contacts) write_contact_rows(*world, *out.contacts);
                if (out.joints) write_joint_rows(*world, *out.joints);
                if (out.ropes) write_rope_rows(*world, *out.ropes);
            }
            if (progress) bar.update(step, world->time());
        }
        step = 0;  // past the loop: errors below are not a step's
        if (out.trajectory && !out.trajectory->flush()) throw Error(fmt::format("{}: write failed", *out_file));
        if (out.contacts && !out.contacts->flush()) throw Error(fmt::format("{}: write failed", *contacts_file));
        if (out.joints && !out.joints->flush()) throw Error(fmt::format("{}: write failed", *joints_file));
        if (out.ropes && !out.ropes->flush()) throw Error(fmt::format("{}: write failed", *ropes_file));

        double wall = 0.0;
        for (double t : step_seconds) wall += t;
        std::vector<double> sorted = step_seconds;
        std::sort(sorted.begin(), sorted.end());
        const double simulated = world->time() - time_initial;
        const double energy_final = world->energy().total();
        const nlohmann::json summary = {
            {"scene", scene_file},
            {"steps", steps},
            {"timestep", h},
            {"simulated_time", simulated},
            {"wall_time", wall},
            {"real_time_factor", wall > 0.0 ? simulated / wall : 0.0},
            {"step_time_us",
             {{"mean", 1e6 * wall / static_cast<double>(steps)},
              {"p50", 1e6 * percentile(sorted, 0.50)},
              {"p99", 1e6 * percentile(sorted, 0.99)},
              {"max", 1e6 * sorted.back()}}},
            {"integrator", world->settings().integrator == Integrator::gssss ? "gssss" : "semi_implicit"},
            {"solver",
             {{"id", world->settings().solver.id},
              {"direct_islands", world->settings().direct_islands},
              {"newton_islands", world->settings().newton_islands},
              {"large_island_rows", world->settings().large_island_rows},
              {"failures", failures},
              {"fallbacks", fallbacks},
              {"budget_limited", budget_limited},
              {"iterations_mean", static_cast<double>(iterations) / static_cast<double>(steps)},
              {"residual_max", residual_max}}},
            {"bodies", world->body_count()},
            {"joints", world->joint_count()},
            {"cables", world->cable_count()},
            {"ropes", world->rope_count()},
            {"max_joint_error", joint_error_max},
            {"max_penetration", penetration_max},
            {"contacts_dropped", {{"total", contacts_dropped}, {"steps", dropping_steps}}},
            {"substeps", {{"steps", substepped_steps}, {"max", substeps_max}}},
            {"joints_broken", {{"total", joints_broken}, {"first_time", joints_broken > 0 ? nlohmann::json(broken_first)
                                                                                        : nlohmann::json(nullptr)}}},
            {"energy", {{"initial", energy_initial}, {"final", energy_final}, {"excess_max", energy_excess_max}}},
            {"diverging", {{"steps", diverging}, {"first_time", diverging > 0 ? nlohmann::json(diverging_first)
                                                                                : nlohmann::json(nullptr)}}}};
        if (summary_file) {
            std::ofstream s = open_output(*summary_file);
            s << summary.dump(2) << "\n";
            if (!s.flush()) throw Error(fmt::format("{}: write failed", *summary_file));
        }
        if (replay) {
            std::ofstream html = open_output(*html_file);
            replay->write(html, page, summary);
            if (!html.flush()) throw Error(fmt::format("{}: write failed", *html_file));
        }
        if (!quiet) {
            fmt::print("{}: {} steps, {:.6g} s simulated in {:.3g} s ({:.3g}x real time); solver {}: {} failures, "
                       "{} fallbacks; max joint error {:.3g}, max penetration {:.3g} m; energy {:.6g} -> {:.6g} J\n",
                       scene_file, steps, simulated, wall, wall > 0.0 ? simulated / wall : 0.0,
                       world->settings().solver.id, failures, fallbacks, joint_error_max, penetration_max,
                       energy_initial, energy_final);
            if (world->settings().integrator == Integrator::gssss) {
                fmt::print("{}: INTEGRATOR gssss (docs/engine.md \"Integrators\"): {:.3g} Newton iterations per step, "
                           "largest final residual {:.3g}; the solver takes no part\n",
                           scene_file, static_cast<double>(iterations) / static_cast<double>(steps), residual_max);
            }
            if (contacts_dropped > 0) {
                fmt::print("{}: CONTACTS DROPPED: {} in {} steps (their rows would pass the step's memory cap, "
                           "WorldSettings::max_contact_row_values: docs/engine.md \"Memory bounds\")\n",
                           scene_file, contacts_dropped, dropping_steps);
            }
            if (substepped_steps > 0) {
                fmt::print("{}: SUBSTEPS: {} steps discarded by a plugin (PIVOT_DISCARD) and taken again in up to {} "
                           "substeps\n",
                           scene_file, substepped_steps, substeps_max);
            }
            if (joints_broken > 0) {
                fmt::print("{}: JOINTS BROKEN: {} (the first at t = {:.6g} s)\n", scene_file, joints_broken,
                           broken_first);
            }
            if (diverging > 0) {
                fmt::print("{}: DIVERGING: {} steps from t = {:.6g} s (energy gain up to {:.3g} J, max joint error {:.3g})\n",
                           scene_file, diverging, diverging_first, energy_excess_max, joint_error_max);
            }
        }
        return kSuccess;
    } catch (const Error& e) {
        if (step > 0) {
            fmt::print(stderr, "pivot run: {}: step {}: {}\n", scene_file, step, e.what());
        } else {
            fmt::print(stderr, "pivot run: {}\n", e.what());
        }
        return kUserError;
    }
}

}  // namespace

int command_run(std::vector<std::string> argv) {
    Arguments args(std::move(argv));
    if (args.flag("--help") || args.flag("-h")) {
        fmt::print("{}", kUsage);
        return kSuccess;
    }
    try {
        return run(args);
    } catch (const UsageError& e) {
        fmt::print(stderr, "pivot run: {}\n{}", e.message, kUsage);
        return kUsageError;
    }
}

}  // namespace pivot::cli
