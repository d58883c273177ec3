#pragma once
// Runs a shell command and captures its exit code, stdout and stderr.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace pivot::test {

struct CommandResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

inline std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline CommandResult run_command(const std::string& command) {
    char out_name[] = "/tmp/pivot_cli_out_XXXXXX";
    char err_name[] = "/tmp/pivot_cli_err_XXXXXX";
    const int out_fd = mkstemp(out_name);
    const int err_fd = mkstemp(err_name);
    close(out_fd);
    close(err_fd);
    const std::string full = command + " >" + out_name + " 2>" + err_name;
    const int status = std::system(full.c_str());
    CommandResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out_name);
    r.err = read_file(err_name);
    std::remove(out_name);
    std::remove(err_name);
    return r;
}

}  // namespace pivot::test
