#pragma once
// The subcommands of `pivot`; each takes the arguments after its name and
// returns the process exit code.
#include <string>
#include <vector>

namespace pivot::cli {

int command_plugins(std::vector<std::string> args);
int command_lcp(std::vector<std::string> args);
int command_run(std::vector<std::string> args);
int command_serve(std::vector<std::string> args);

}  // namespace pivot::cli
