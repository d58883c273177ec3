// `pivot plugins [--json] [--probe FILE]`: what plugins there are, with their
// parameter schemas; or what is wrong with one plugin file.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#if defined(__unix__) || defined(__APPLE__)
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "command_line.hpp"
#include "commands.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_library.hpp"

namespace pivot::cli {

namespace {

const char* kUsage =
    "usage: pivot plugins [--json] [--plugins PATH]... [--log-level LEVEL]\n"
    "       pivot plugins --probe FILE [--json] [--timeout S]\n"
    "\n"
    "Lists every loadable plugin: kind, id, version, ABI version, file and\n"
    "parameters. Plugins are found next to pivot (first-party), in the folders\n"
    "of PIVOT_PLUGIN_PATH (colon-separated) and in each --plugins PATH.\n"
    "\n"
    "  --json          print a JSON array of {kind, id, version, abi, file, parameters, ...}\n"
    "  --probe FILE    load FILE alone and report what is wrong with it; a\n"
    "                  plugin that crashes while loading is reported, not fatal\n"
    "                  (exit 0 when it loads, 1 when it does not)\n"
    "  --timeout S     with --probe: give up on a plugin that has not finished\n"
    "                  loading after S seconds (default 10; it is killed)\n";

void print_plugin_text(const PluginRecord& p) {
    fmt::print("{:<9} {:<32} {:<9} abi {}.{}  {}\n", kind_name(p.kind), p.id, p.version, p.abi_major, p.abi_minor,
               p.file);
    if (!p.description.empty()) fmt::print("          {}\n", p.description);
    for (const auto& param : p.params) {
        const std::string shape = param.length > 1 ? fmt::format("[{}]", param.length) : "";
        fmt::print("          {}{} = {} {} in {}{}: {}\n", param.name, shape, param_default_text(param),
                   param.unit.empty() || param.unit == "1" ? "" : param.unit, param_range_text(param),
                   param.per_item() ? " (per item)" : "", param.doc);
    }
}

int list_plugins(const CommonOptions& common, bool json) {
    PluginRegistry registry;
    const bool explicit_ok = load_plugins(registry, common);
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto* p : registry.plugins()) out.push_back(plugin_to_json(*p));
        std::cout << out.dump(2) << "\n";
    } else if (registry.plugins().empty()) {
        fmt::print("no plugins found (looked next to pivot, in PIVOT_PLUGIN_PATH and --plugins)\n");
    } else {
        for (const auto* p : registry.plugins()) print_plugin_text(*p);
    }
    return explicit_ok ? kSuccess : kUserError;
}

// Loads one file in this process and prints the verdict.
int probe_here(const std::string& file, bool json) {
    PluginRegistry registry;
    LoadReport report = registry.load(file);
    if (json) {
        nlohmann::json out = {{"file", file}, {"ok", report.ok()}, {"problems", report.problems},
                              {"notes", report.notes}, {"plugins", nlohmann::json::array()}};
        for (const auto* p : registry.plugins()) out["plugins"].push_back(plugin_to_json(*p));
        std::cout << out.dump(2) << std::endl;
    } else {
        for (const auto& note : report.notes) fmt::print("note: {}\n", note);
        for (const auto& problem : report.problems) fmt::print(stderr, "pivot: {}\n", problem);
        if (report.ok()) {
            fmt::print("ok: '{}' provides {} plugin(s)\n", file, registry.plugins().size());
            for (const auto* p : registry.plugins()) print_plugin_text(*p);
        }
    }
    return report.ok() ? kSuccess : kUserError;
}

// `happened`: "crashed while being loaded (...)", "did not finish loading ...".
void report_load_failure(const std::string& file, bool json, const std::string& happened) {
    const std::string what = fmt::format(
        "plugin file '{}': {}; the fault is in the plugin's entry, init or static constructors", file, happened);
    if (json) {
        nlohmann::json out = {{"file", file}, {"ok", false}, {"problems", {what}}, {"notes", nlohmann::json::array()},
                              {"plugins", nlohmann::json::array()}};
        std::cout << out.dump(2) << std::endl;
    } else {
        fmt::print(stderr, "pivot: {}\n", what);
    }
}

int probe(const std::string& file, bool json, double timeout) {
#if defined(__unix__) || defined(__APPLE__)
    // A plugin runs code when it is loaded (its entry, init, static
    // constructors); a crash there must not take the probe down with it, so
    // the loading happens in a child process. The child sends one byte when
    // it has finished: no byte means it died on the way, whatever its exit
    // status (crash handlers such as AddressSanitizer's turn a signal into
    // an exit code). A child that sends nothing within the timeout is
    // killed: a plugin whose entry never returns must not hang the probe.
    int done_pipe[2];
    if (pipe(done_pipe) == 0) {
        std::fflush(nullptr);
        const pid_t child = fork();
        if (child == 0) {
            close(done_pipe[0]);
            int code = kUserError;
            try {
                code = probe_here(file, json);
            } catch (const std::exception& e) {
                fmt::print(stderr, "pivot: plugin file '{}': {}\n", file, e.what());
            }
            std::fflush(nullptr);
            const char finished = 1;
            (void)!write(done_pipe[1], &finished, 1);
            _exit(code);
        }
        close(done_pipe[1]);
        if (child > 0) {
            char finished = 0;
            ssize_t got = 0;
            pollfd waiting{done_pipe[0], POLLIN, 0};
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
            int ready = 0;
            for (;;) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now());
                ready = poll(&waiting, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0)));
                if (ready >= 0 || errno != EINTR) break;
            }
            if (ready <= 0) {
                kill(child, SIGKILL);
                while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
                }
                close(done_pipe[0]);
                report_load_failure(file, json, fmt::format("did not finish loading within {} s (killed)", timeout));
                return kUserError;
            }
            do {
                got = read(done_pipe[0], &finished, 1);
            } while (got < 0 && errno == EINTR);
            close(done_pipe[0]);
            int status = 0;
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
            }
            if (got == 1 && WIFEXITED(status)) return WEXITSTATUS(status);
            if (WIFSIGNALED(status)) {
                const int sig = WTERMSIG(status);
                report_load_failure(file, json,
                                    fmt::format("crashed while being loaded (signal {}, {})", sig, strsignal(sig)));
            } else {
                report_load_failure(file, json,
                                    fmt::format("crashed while being loaded (the process ended with status {} "
                                                "before finishing)",
                                                WIFEXITED(status) ? WEXITSTATUS(status) : -1));
            }
            return kUserError;
        }
        close(done_pipe[0]);
    }
#endif
    return probe_here(file, json);
}

}  // namespace

int command_plugins(std::vector<std::string> argv) {
    Arguments args(std::move(argv));
    if (args.flag("--help") || args.flag("-h")) {
        fmt::print("{}", kUsage);
        return kSuccess;
    }
    try {
        const CommonOptions common = read_common_options(args);
        const bool json = args.flag("--json");
        const auto probe_file = args.option("--probe");
        const auto timeout_text = args.option("--timeout");
        if (timeout_text && !probe_file) throw UsageError{"--timeout goes with --probe"};
        const double timeout = timeout_text ? parse_positive("--timeout", *timeout_text) : 10.0;
        const auto rest = args.positionals();
        if (!rest.empty()) throw UsageError{"unexpected argument '" + rest.front() + "'"};
        if (probe_file) return probe(*probe_file, json, timeout);
        return list_plugins(common, json);
    } catch (const UsageError& e) {
        fmt::print(stderr, "pivot plugins: {}\n{}", e.message, kUsage);
        return kUsageError;
    }
}

}  // namespace pivot::cli
