// `pivot serve SCENE.json`: steps a scene in real time and streams it to the
// viewer page in a browser, whose keys and sliders drive the scene's
// `controls` (docs/viewer.md, docs/cli.md). The network is live_server.cpp;
// this file is the operator's side: the clock, the controls, the messages.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "commands.hpp"
#include "common/error.hpp"
#include "common/input_limits.hpp"
#include "live_server.hpp"
#include "replay.hpp"
#include "scene/scene_loader.hpp"

namespace pivot::cli {

namespace {

const char* kUsage =
    "usage: pivot serve SCENE.json [options]\n"
    "\n"
    "Steps a scene file in real time and serves the viewer page: open the printed\n"
    "address in a browser to watch it; the keys and sliders of the scene's\n"
    "\"controls\" drive its motors and winches (docs/viewer.md).\n"
    "\n"
    "  --port P               TCP port (default 8765; 0: any free port)\n"
    "  --host ADDRESS         IP address to listen on (default 127.0.0.1, this machine only)\n"
    "  --solver ID            overrides the scene's solver\n"
    "  --quiet                prints nothing but the address and errors\n"
    "  --plugins PATH         more plugin files or folders (repeatable)\n"
    "  --log-level LEVEL      trace, debug, info, warning, error, off\n"
    "\n"
    "Prints \"pivot serve: http://HOST:PORT/\" once listening; stops on SIGINT or\n"
    "SIGTERM (exit 0). Exit 1 when the scene is bad or the address cannot be used;\n"
    "2 on a usage error.\n";

using Clock = std::chrono::steady_clock;
// Frames to the pages at the display's rate; the world is stepped in each
// tick by as many steps as the wall time since asks for.
constexpr auto kFramePeriod = std::chrono::microseconds(16'667);
// A tick never steps more than this much simulated time: a world slower
// than real time falls behind (and says so in its frames) rather than
// spending ever longer ticks catching up.
constexpr double kMaxSimulatedPerTick = 0.1;  // s (or one step, if longer)
// Nor does it step for longer than this wall time: the pages' messages and
// frames wait while it steps (one thread).
constexpr auto kMaxSteppingPerTick = std::chrono::milliseconds(50);

// The scene being served: its world, the operator's controls and the clock.
class LiveScene {
public:
    LiveScene(World& world, std::vector<OperatorControl> controls, std::string scene, bool quiet)
        : world_(world),
          controls_(std::move(controls)),
          values_(controls_.size(), 0.0),
          held_(controls_.size(), 0),
          holder_(controls_.size(), nullptr),
          initial_(world.save_state()),
          scene_(std::move(scene)),
          quiet_(quiet) {
        // The levers start at neutral: a control's motor or winch stands
        // until the operator moves it (the scene's own target is for `pivot run`).
        for (size_t c = 0; c < controls_.size(); ++c) apply_operator_control(world_, controls_[c], 0.0);
        initial_ = world_.save_state();
    }

    void attach(LiveServer& server) { server_ = &server; }

    std::string greeting() const {
        nlohmann::json scene = scene_geometry(world_, scene_, "pivot-live/1");
        scene["type"] = "scene";
        nlohmann::json controls = nlohmann::json::array();
        for (const OperatorControl& c : controls_) {
            nlohmann::json keys = nlohmann::json::array();
            if (!c.keys[0].empty()) keys = {c.keys[0], c.keys[1]};
            controls.push_back({{"name", c.name}, {"target", target_name(c.target)}, {"object", c.object},
                                {"keys", keys}, {"speed", c.speed}});
        }
        scene["controls"] = std::move(controls);
        scene["paused"] = paused_;
        return json_text(scene);
    }

    // Steps the world up to the wall clock, then sends a frame.
    void tick() {
        const Clock::time_point now = Clock::now();
        const double wall = std::chrono::duration<double>(now - last_tick_).count();
        last_tick_ = now;
        const double h = world_.settings().timestep;
        if (!paused_) {
            const double cap = std::max(kMaxSimulatedPerTick, h);
            owed_ += wall;
            lagging_ = owed_ > cap;
            owed_ = std::min(owed_, cap);
            while (owed_ >= h && !paused_) {
                owed_ -= h;
                step();
                if (Clock::now() - now > kMaxSteppingPerTick) {  // slower than real time: let it go
                    lagging_ = lagging_ || owed_ >= h;
                    owed_ = 0.0;
                }
            }
        }
        send_frame();
    }

    void message(LiveConnection& from, std::string_view text) {
        try {
            handle(from, text);
        } catch (const std::exception& e) {  // Error, and anything a plugin or the JSON library throws
            LiveServer::send(from, json_text({{"type", "error"}, {"message", e.what()}}));
        }
    }

    // A page went away: what its keys held goes back to neutral (no motor
    // runs on for a page that closed, crashed or lost its network).
    void closed(const LiveConnection& connection) {
        for (size_t c = 0; c < controls_.size(); ++c) {
            if (holder_[c] != &connection) continue;
            holder_[c] = nullptr;
            held_[c] = 0;
            set_quietly(c, 0.0);
        }
    }

    void start_clock() { last_tick_ = Clock::now(); }

private:
    void step() {
        const Clock::time_point start = Clock::now();
        try {
            world_.step();
        } catch (const std::exception& e) {
            // The world stays as the failed step left it; the operator may reset.
            paused_ = true;
            const std::string message = fmt::format("step at t = {:.6g} s failed: {}; paused (reset to start again)",
                                                    world_.time(), e.what());
            if (!quiet_) fmt::print(stderr, "pivot serve: {}\n", message);
            server_->broadcast(json_text({{"type", "error"}, {"message", message}}));
            return;
        }
        series_.add_step(world_, std::chrono::duration<double>(Clock::now() - start).count());
    }

    void send_frame() {
        if (server_->connections() == 0) {
            series_.take_values(0.0);  // a page that connects later sees its own frames' steps only
            return;
        }
        nlohmann::json frame = frame_of(world_);
        frame["type"] = "frame";
        frame["stats"] = series_.take_values(world_.energy().total());
        frame["stats"]["lagging"] = lagging_;
        frame["paused"] = paused_;
        frame["controls"] = values_;
        server_->broadcast_frame(json_text(frame));
    }

    void handle(const LiveConnection& from, std::string_view text) {
        check_json_depth(text, "message");
        nlohmann::json m;
        try {
            m = nlohmann::json::parse(text.begin(), text.end());
        } catch (const nlohmann::json::exception&) {
            throw Error("malformed message: not JSON (docs/viewer.md \"Live protocol\")");
        }
        if (!m.is_object() || !m.contains("type") || !m["type"].is_string()) {
            throw Error("malformed message: expected an object with a \"type\"");
        }
        const std::string type = m["type"];
        if (type == "key") {
            const std::string key = string_field(m, "key");
            const bool down = boolean_field(m, "down");
            for (size_t c = 0; c < controls_.size(); ++c) {
                for (int side = 0; side < 2; ++side) {
                    if (controls_[c].keys[static_cast<size_t>(side)] != key) continue;
                    const int direction = side == 0 ? -1 : 1;
                    if (down) {
                        held_[c] = direction;
                        holder_[c] = &from;
                        set(c, direction * controls_[c].speed);
                    } else if (held_[c] == direction) {
                        held_[c] = 0;
                        holder_[c] = nullptr;
                        set(c, 0.0);
                    }
                    return;
                }
            }
            throw Error(fmt::format("key '{}' drives no control", shortened(key)));
        }
        if (type == "control") {
            if (!m.contains("index") || !m["index"].is_number_integer() || m["index"].get<int64_t>() < 0 ||
                m["index"].get<int64_t>() >= static_cast<int64_t>(controls_.size())) {
                throw Error(fmt::format("control: \"index\" must be a control index 0 .. {}",
                                        static_cast<int64_t>(controls_.size()) - 1));
            }
            const auto c = static_cast<size_t>(m["index"].get<int64_t>());
            if (!m.contains("value") || !m["value"].is_number()) throw Error("control: \"value\" must be a number");
            const double value = m["value"].get<double>();
            if (!(std::abs(value) <= controls_[c].speed)) {
                throw Error(fmt::format("control '{}': value {} is outside [-{}, {}]", controls_[c].name, value,
                                        controls_[c].speed, controls_[c].speed));
            }
            held_[c] = 0;
            holder_[c] = nullptr;
            set(c, value);
            return;
        }
        if (type == "pause") {
            paused_ = boolean_field(m, "paused");
            owed_ = 0.0;
            return;
        }
        if (type == "reset") {
            world_.restore_state(initial_.data(), initial_.size());
            std::fill(values_.begin(), values_.end(), 0.0);
            std::fill(held_.begin(), held_.end(), 0);
            std::fill(holder_.begin(), holder_.end(), nullptr);
            owed_ = 0.0;
            paused_ = false;
            lagging_ = false;
            return;
        }
        throw Error(fmt::format("unknown message type '{}' (key, control, pause, reset)", shortened(type)));
    }

    void set(size_t c, double value) {
        apply_operator_control(world_, controls_[c], value);
        values_[c] = value;
    }
    // The same where no page is there to be told (a closed one's keys).
    void set_quietly(size_t c, double value) {
        try {
            set(c, value);
        } catch (const std::exception& e) {
            if (!quiet_) fmt::print(stderr, "pivot serve: control '{}': {}\n", controls_[c].name, e.what());
        }
    }

    // A page's text in a message: at most 64 characters, cut where a UTF-8
    // character starts.
    static std::string shortened(const std::string& text) {
        size_t end = std::min<size_t>(text.size(), 64);
        while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
        return text.substr(0, end);
    }

    static std::string string_field(const nlohmann::json& m, const char* name) {
        if (!m.contains(name) || !m[name].is_string()) throw Error(fmt::format("\"{}\" must be a string", name));
        return m[name].get<std::string>();
    }
    static bool boolean_field(const nlohmann::json& m, const char* name) {
        if (!m.contains(name) || !m[name].is_boolean()) throw Error(fmt::format("\"{}\" must be true or false", name));
        return m[name].get<bool>();
    }

    World& world_;
    std::vector<OperatorControl> controls_;
    std::vector<double> values_;  // what each control asks for now
    std::vector<int> held_;       // -1 / +1: the key holding it, 0: none
    std::vector<const LiveConnection*> holder_;  // the page whose key holds it (compared, never used)
    std::vector<uint8_t> initial_;
    std::string scene_;
    bool quiet_;
    LiveServer* server_ = nullptr;
    FrameSeries series_;
    Clock::time_point last_tick_{};
    double owed_ = 0.0;  // s of wall time not yet stepped
    bool paused_ = false;
    bool lagging_ = false;
};

int serve(Arguments& args) {
    const CommonOptions common = read_common_options(args);
    const auto port_text = args.option("--port");
    const auto host = args.option("--host").value_or("127.0.0.1");
    const auto solver = args.option("--solver");
    const bool quiet = args.flag("--quiet");
    const auto files = args.positionals();
    if (files.size() != 1) throw UsageError{"expected exactly one SCENE.json"};
    const auto port = static_cast<uint16_t>(
        port_text ? parse_whole("--port", *port_text, 0, 65535, "a port number 0 .. 65535") : 8765);
    const std::string& scene_file = files[0];

    PluginRegistry registry;
    if (!load_plugins(registry, common)) return kUserError;
    try {
        SceneOptions options;
        options.solver = solver;
        std::vector<OperatorControl> controls;
        options.controls = &controls;
        std::unique_ptr<World> world = load_scene_file(registry, scene_file, options);
        const std::string page = read_viewer_page();

        boost::asio::io_context io;
        LiveScene live(*world, std::move(controls), scene_file, quiet);
        LiveServer server(io, host, port, page,
                          {[&] { return live.greeting(); },
                           [&](LiveConnection& from, std::string_view text) { live.message(from, text); },
                           [&](const LiveConnection& gone) { live.closed(gone); }});
        live.attach(server);

        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
        boost::asio::steady_timer timer(io);
        Clock::time_point next = Clock::now();
        std::function<void()> schedule = [&] {
            next += kFramePeriod;
            const Clock::time_point now = Clock::now();
            if (next < now) next = now;  // late (a slow step): no burst of ticks to catch up
            timer.expires_at(next);
            timer.async_wait([&](const boost::system::error_code& ec) {
                if (ec) return;
                try {
                    live.tick();
                } catch (const std::exception& e) {  // a frame that could not be made: the next may
                    fmt::print(stderr, "pivot serve: t = {:.6g} s: {}\n", world->time(), e.what());
                }
                schedule();
            });
        };
        live.start_clock();
        schedule();

        const std::string shown_host = host.find(':') != std::string::npos ? "[" + host + "]" : host;
        fmt::print("pivot serve: http://{}:{}/\n", shown_host, server.port());
        std::fflush(stdout);
        io.run();
        if (!quiet) fmt::print(stderr, "pivot serve: stopped at t = {:.6g} s\n", world->time());
        return kSuccess;
    } catch (const Error& e) {
        fmt::print(stderr, "pivot serve: {}\n", e.what());
        return kUserError;
    }
}

}  // namespace

int command_serve(std::vector<std::string> argv) {
    Arguments args(std::move(argv));
    if (args.flag("--help") || args.flag("-h")) {
        fmt::print("{}", kUsage);
        return kSuccess;
    }
    try {
        return serve(args);
    } catch (const UsageError& e) {
        fmt::print(stderr, "pivot serve: {}\n{}", e.message, kUsage);
        return kUsageError;
    }
}

}  // namespace pivot::cli
