// `pivot`: the command line tool. Dispatches to one command per file
// (command_*.cpp); the contract is docs/cli.md.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command_line.hpp"
#include "commands.hpp"

namespace {

const char* kUsage =
    "usage: pivot <command> [options]\n"
    "\n"
    "commands:\n"
    "  run        simulate a scene file (pivot-scene/1)\n"
    "  serve      step a scene in real time for the viewer page in a browser\n"
    "  plugins    list the loadable plugins, or probe one plugin file\n"
    "  lcp solve  solve a pivot-lcp/1 problem file with a solver plugin\n"
    "\n"
    "Every command accepts --help, --plugins PATH (repeatable) and\n"
    "--log-level LEVEL (trace, debug, info, warning, error, off; default from\n"
    "the environment variable PIVOT_LOG_LEVEL, else warning).\n";

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        fmt::print(stderr, "{}", kUsage);
        return pivot::cli::kUsageError;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    try {
        if (command == "run") return pivot::cli::command_run(std::move(args));
        if (command == "serve") return pivot::cli::command_serve(std::move(args));
        if (command == "plugins") return pivot::cli::command_plugins(std::move(args));
        if (command == "lcp") return pivot::cli::command_lcp(std::move(args));
        if (command == "--help" || command == "-h" || command == "help") {
            fmt::print("{}", kUsage);
            return pivot::cli::kSuccess;
        }
        if (command == "--version") {
            fmt::print("pivot {} (plugin ABI {}.{})\n", PIVOT_VERSION, PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR);
            return pivot::cli::kSuccess;
        }
    } catch (const std::exception& e) {
        // Commands report their own errors; this is the last line of defence.
        fmt::print(stderr, "pivot {}: {}\n", command, e.what());
        return pivot::cli::kUserError;
    }
    fmt::print(stderr, "pivot: unknown command '{}'\n{}", command, kUsage);
    return pivot::cli::kUsageError;
}
