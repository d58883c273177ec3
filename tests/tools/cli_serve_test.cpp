// `pivot serve` without a browser (docs/cli.md): it says where it listens,
// serves the page at / and nothing else, outlives a hostile request, and
// refuses bad arguments and scenes with the documented exit codes. The
// WebSocket side (keys moving a joint, refused messages) is tests/viewer's,
// in headless Chromium.
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "run_command.hpp"

namespace pivot {
namespace {

using test::run_command;

const std::string kPivot = PIVOT_EXE;
const std::string kExamples = PIVOT_EXAMPLE_SCENES_DIR;

std::string temp(const std::string& name) { return ::testing::TempDir() + "cli_serve_" + name; }

// Sends `request` to 127.0.0.1:port and returns all it answers.
std::string exchange(int port, const std::string& request) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string answer;
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) {
        size_t sent = 0;
        while (sent < request.size()) {
            const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) break;
            sent += static_cast<size_t>(n);
        }
        shutdown(fd, SHUT_WR);
        char buffer[4096];
        for (ssize_t n; (n = recv(fd, buffer, sizeof(buffer), 0)) > 0;) answer.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    return answer;
}

// A running `pivot serve`: its pid and port, stopped with SIGTERM.
class Server {
public:
    explicit Server(const std::string& scene) {
        page_ = temp("page.html");
        std::ofstream(page_) << "<html><body>stand-in page</body></html>\n";
        pipe_ = popen(("echo $$; PIVOT_VIEWER_PAGE=" + page_ + " exec " + kPivot + " serve " + scene +
                       " --port 0 --quiet")
                          .c_str(),
                      "r");
        char line[256];
        if (pipe_ != nullptr && fgets(line, sizeof(line), pipe_) != nullptr) pid_ = std::stoi(line);
        if (pipe_ != nullptr && fgets(line, sizeof(line), pipe_) != nullptr) {
            first_line_ = line;
            const auto colon = first_line_.rfind(':');
            if (colon != std::string::npos) port_ = std::atoi(first_line_.c_str() + colon + 1);
        }
    }
    ~Server() { stop(); }
    int stop() {
        if (pipe_ == nullptr) return -1;
        if (pid_ > 0) kill(pid_, SIGTERM);
        const int status = pclose(pipe_);
        pipe_ = nullptr;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    int port() const { return port_; }
    const std::string& first_line() const { return first_line_; }

private:
    std::string page_;
    FILE* pipe_ = nullptr;
    int pid_ = 0;
    int port_ = 0;
    std::string first_line_;
};

TEST(CliServe, ServesThePageAtTheAddressItPrintsAndStopsOnSigterm) {
    Server server(kExamples + "/crane.json");
    EXPECT_EQ(server.first_line().rfind("pivot serve: http://127.0.0.1:", 0), 0u) << server.first_line();
    ASSERT_GT(server.port(), 0);
    const std::string page = exchange(server.port(), "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    EXPECT_EQ(page.rfind("HTTP/1.1 200", 0), 0u) << page;
    EXPECT_NE(page.find("stand-in page"), std::string::npos);
    const std::string missing = exchange(server.port(), "GET /other HTTP/1.1\r\nHost: localhost\r\n\r\n");
    EXPECT_EQ(missing.rfind("HTTP/1.1 404", 0), 0u) << missing;
    const std::string post = exchange(server.port(), "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
    EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
    // Garbage, and a header past the 8 KiB a request may have: refused; the server goes on.
    EXPECT_EQ(exchange(server.port(), "\x01\x02 nonsense\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
    const std::string huge = "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n";
    EXPECT_EQ(exchange(server.port(), huge).rfind("HTTP/1.1 400", 0), 0u);
    EXPECT_EQ(exchange(server.port(), "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").rfind("HTTP/1.1 200", 0), 0u);
    EXPECT_EQ(server.stop(), 0);
}

TEST(CliServe, BadArgumentsAndScenesExitAsDocumented) {
    auto r = run_command(kPivot + " serve " + kExamples + "/crane.json --port 70000");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--port needs a port number"), std::string::npos) << r.err;
    r = run_command(kPivot + " serve");
    EXPECT_EQ(r.exit_code, 2);
    const std::string bad = temp("bad.json");
    std::ofstream(bad) << R"({"format": "pivot-scene/1", "controls": [{"joint": "none", "speed": 1}]})";
    r = run_command(kPivot + " serve " + bad + " --port 0");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("bad.json: /controls/0/joint: no joint named 'none'"), std::string::npos) << r.err;
    r = run_command(kPivot + " serve " + kExamples + "/crane.json --host not-an-address --port 0");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("not an IP address"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pivot
