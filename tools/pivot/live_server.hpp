#pragma once
// The network side of `pivot serve` (docs/viewer.md "Live protocol"): an
// HTTP server on one address that answers GET / with the viewer page and
// upgrades GET /ws to a WebSocket of text messages. One thread: everything
// runs on the caller's io_context, so the handlers and the world need no
// locks. A page that reads slowly skips frames instead of queueing them;
// a message over 64 KiB closes its connection (code 1009) and nothing else.
// At most 64 WebSocket and 64 HTTP connections at a time (more are closed
// as they come); a WebSocket opened by a page of another origin is refused
// (403), so a web site in the same browser cannot drive the scene.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

namespace pivot::cli {

class LiveConnection;

class LiveServer {
public:
    static constexpr size_t kMaxMessageBytes = 64 * 1024;

    struct Handlers {
        // The first message of every new connection.
        std::function<std::string()> greeting;
        // A text message from a page; reply with LiveServer::send.
        std::function<void(LiveConnection& from, std::string_view text)> message;
        // A connection that had its greeting ended (closed, failed, refused
        // for size); called once, before the connection is gone.
        std::function<void(const LiveConnection& gone)> closed;
    };

    // Listens on host:port (port 0: a free one; port() says which).
    // Throws pivot::Error when the address cannot be bound.
    LiveServer(boost::asio::io_context& io, const std::string& host, uint16_t port, std::string page,
               Handlers handlers);
    ~LiveServer();
    LiveServer(const LiveServer&) = delete;
    LiveServer& operator=(const LiveServer&) = delete;

    uint16_t port() const;
    // To every open connection. A frame is skipped for a connection that
    // has frames still waiting to be written; other messages are not.
    void broadcast_frame(std::string text);
    void broadcast(std::string text);
    static void send(LiveConnection& to, std::string text);
    size_t connections() const;

    struct State;  // opaque: the acceptor and the connections (live_server.cpp)

private:
    std::shared_ptr<State> state_;
};

}  // namespace pivot::cli
