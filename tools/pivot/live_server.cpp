// The HTTP and WebSocket server of `pivot serve` (live_server.hpp), on
// Boost.Beast and Boost.Asio (header-only, from Debian's libboost-dev).
#include "live_server.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <optional>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// A request is a GET line and a few headers: 8 KiB is plenty, and bounds
// what a stray client can make the server hold.
constexpr uint32_t kMaxRequestBytes = 8 * 1024;
// What a connection may have waiting to be written: one frame (a newer one
// replaces nothing; it is skipped until this one is out) and replies. A
// page that does not read at all is closed once replies pile up past this.
constexpr size_t kMaxFramesQueued = 1;
constexpr size_t kMaxQueued = 64;
constexpr auto kRequestTimeout = std::chrono::seconds(30);
// A message is read in pieces of this size, so its length is known before
// it is all in memory.
constexpr size_t kReadChunk = 4096;
// Pages and requests at a time: a classroom's worth; past it a connection
// is closed as it comes, so no client can make the server hold more.
constexpr size_t kMaxConnections = 64;
constexpr size_t kMaxExchanges = 64;
// After a failed accept (out of file descriptors, say): wait, do not spin.
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

}  // namespace

struct LiveServer::State : std::enable_shared_from_this<LiveServer::State> {
    tcp::acceptor acceptor;
    net::steady_timer retry;
    const std::string page;
    Handlers handlers;
    std::vector<std::weak_ptr<LiveConnection>> connections;
    size_t exchanges = 0;  // HTTP requests being read or answered

    State(net::io_context& io, std::string page_text, Handlers h)
        : acceptor(io), retry(io), page(std::move(page_text)), handlers(std::move(h)) {}
    void accept();
    size_t open_connections();
};

class LiveConnection : public std::enable_shared_from_this<LiveConnection> {
public:
    LiveConnection(tcp::socket&& socket, std::shared_ptr<LiveServer::State> server)
        : ws_(std::move(socket)), server_(std::move(server)) {}

    void start(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        // The 64 KiB bound is counted here (on_read), not by Beast's
        // read_message_max: Beast 1.74 then tears the connection down with
        // most of the message unread, and the peer's kernel answers that
        // with a reset that loses the close frame (the page sees 1006, not
        // 1009). async_close reads the rest and the peer's close first.
        ws_.read_message_max(0);
        ws_.text(true);
        ws_.async_accept(request, beast::bind_front_handler(&LiveConnection::on_accept, shared_from_this()));
    }

    void send(std::shared_ptr<const std::string> text, bool frame) {
        if (closed_) return;
        if (frame && frames_queued_ >= kMaxFramesQueued) return;  // a slow page skips frames
        if (queue_.size() >= kMaxQueued) {  // not reading at all: let it go
            end();
            beast::get_lowest_layer(ws_).close();
            return;
        }
        queue_.push_back({std::move(text), frame});
        if (frame) ++frames_queued_;
        if (queue_.size() == 1) write_next();
    }

private:
    struct Queued {
        std::shared_ptr<const std::string> text;
        bool frame;
    };

    void on_accept(beast::error_code ec) {
        if (ec) return;
        greeted_ = true;
        server_->connections.push_back(weak_from_this());
        send(std::make_shared<const std::string>(server_->handlers.greeting()), false);
        read();
    }

    // Once, when the connection stops taking messages: the owner releases
    // what it held (an operator's keys).
    void end() {
        if (closed_) return;
        closed_ = true;
        if (greeted_) server_->handlers.closed(*this);
    }

    void read() {
        ws_.async_read_some(buffer_, kReadChunk,
                            beast::bind_front_handler(&LiveConnection::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, size_t) {
        if (ec) {  // closed or timed out: this connection ends, the server goes on
            end();
            return;
        }
        if (buffer_.size() > LiveServer::kMaxMessageBytes) {  // too long: close 1009, after the rest of it
            buffer_.consume(buffer_.size());
            end();
            if (queue_.size() > 1) queue_.resize(1);  // the write under way finishes; nothing after it
            ws_.async_close(websocket::close_reason(websocket::close_code::too_big, "message over 64 KiB"),
                            [self = shared_from_this()](beast::error_code) {});
            return;
        }
        if (!ws_.is_message_done()) {
            read();
            return;
        }
        const std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!ws_.got_text()) {
            LiveServer::send(*this, R"({"type":"error","message":"binary messages are not read: send JSON text"})");
        } else {
            server_->handlers.message(*this, text);
        }
        if (!closed_) read();
    }

    void write_next() {
        ws_.async_write(net::buffer(*queue_.front().text),
                        beast::bind_front_handler(&LiveConnection::on_write, shared_from_this()));
    }

    void on_write(beast::error_code ec, size_t) {
        if (ec) {
            end();
            queue_.clear();
            return;
        }
        if (queue_.front().frame) --frames_queued_;
        queue_.pop_front();
        if (!queue_.empty()) write_next();
    }

    websocket::stream<beast::tcp_stream> ws_;
    std::shared_ptr<LiveServer::State> server_;
    beast::flat_buffer buffer_;
    std::deque<Queued> queue_;
    size_t frames_queued_ = 0;
    bool greeted_ = false;
    bool closed_ = false;
};

namespace {

// One HTTP request: the page, or the upgrade to a LiveConnection.
class HttpExchange : public std::enable_shared_from_this<HttpExchange> {
public:
    HttpExchange(tcp::socket&& socket, std::shared_ptr<LiveServer::State> server)
        : stream_(std::move(socket)), server_(std::move(server)) {
        ++server_->exchanges;
    }
    ~HttpExchange() { --server_->exchanges; }
    HttpExchange(const HttpExchange&) = delete;
    HttpExchange& operator=(const HttpExchange&) = delete;

    void start() {
        parser_.emplace();
        parser_->header_limit(kMaxRequestBytes);
        parser_->body_limit(kMaxRequestBytes);
        stream_.expires_after(kRequestTimeout);
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpExchange::on_read, shared_from_this()));
    }

private:
    void on_read(beast::error_code ec, size_t) {
        if (ec) {  // too long, malformed, timed out or closed: answer what can be answered
            if (ec != http::error::end_of_stream && ec != beast::error::timeout) {
                respond(http::status::bad_request, "bad request\n", 11);
            }
            return;
        }
        http::request<http::string_body> request = parser_->release();
        const std::string target(request.target());
        if (websocket::is_upgrade(request)) {
            if (target != "/ws") {
                respond(http::status::not_found, "no WebSocket here: /ws\n", request.version());
            } else if (!same_origin(request)) {
                respond(http::status::forbidden, "a page of another origin\n", request.version());
            } else if (server_->open_connections() >= kMaxConnections) {
                respond(http::status::service_unavailable, "too many pages open\n", request.version());
            } else {
                stream_.expires_never();
                std::make_shared<LiveConnection>(stream_.release_socket(), server_)->start(std::move(request));
            }
            return;
        }
        if (request.method() != http::verb::get && request.method() != http::verb::head) {
            respond(http::status::method_not_allowed, "GET only\n", request.version());
        } else if (target == "/" || target == "/index.html") {
            send_page(request.version(), request.method() == http::verb::head);
        } else {
            respond(http::status::not_found, "not found: the page is at /\n", request.version());
        }
    }

    // A browser names the page that opens a WebSocket (Origin); only the
    // server's own page may drive the scene. No Origin: not a browser.
    static bool same_origin(const http::request<http::string_body>& request) {
        const auto origin = request.find(http::field::origin);
        if (origin == request.end()) return true;
        return origin->value() == "http://" + std::string(request[http::field::host]);
    }

    void respond(http::status status, const std::string& body, unsigned version) {
        auto response = std::make_shared<http::response<http::string_body>>(status, version);
        response->set(http::field::content_type, "text/plain");
        response->body() = body;
        finish(response, body.size());
    }

    // The page from the server's state, not a copy per request (the
    // exchange holds the state).
    void send_page(unsigned version, bool head) {
        auto response = std::make_shared<http::response<http::span_body<const char>>>(http::status::ok, version);
        response->set(http::field::content_type, "text/html; charset=utf-8");
        using Span = http::span_body<const char>::value_type;
        if (!head) response->body() = Span(server_->page.data(), server_->page.size());
        finish(response, server_->page.size());
    }

    template <typename Response>
    void finish(const std::shared_ptr<Response>& response, size_t length) {
        response->set(http::field::server, "pivot serve");
        response->set(http::field::cache_control, "no-store");
        response->keep_alive(false);
        response->content_length(length);
        http::async_write(stream_, *response, [self = shared_from_this(), response](beast::error_code, size_t) {
            beast::error_code ignored;
            self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        });
    }

    beast::tcp_stream stream_;
    std::shared_ptr<LiveServer::State> server_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void LiveServer::State::accept() {
    // Each accepted connection, and the next accept, hold the state they
    // need; closing the acceptor (the server's destructor) ends the loop.
    acceptor.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !self->acceptor.is_open()) return;
        if (ec) {
            self->retry.expires_after(kAcceptRetry);
            self->retry.async_wait([self](beast::error_code wait_ec) {
                if (!wait_ec) self->accept();
            });
            return;
        }
        if (self->exchanges < kMaxExchanges) std::make_shared<HttpExchange>(std::move(socket), self)->start();
        self->accept();  // (a socket past the limit closes as it goes out of scope)
    });
}

size_t LiveServer::State::open_connections() {
    connections.erase(std::remove_if(connections.begin(), connections.end(),
                                     [](const std::weak_ptr<LiveConnection>& c) { return c.expired(); }),
                      connections.end());
    return connections.size();
}

LiveServer::LiveServer(net::io_context& io, const std::string& host, uint16_t port, std::string page,
                       Handlers handlers)
    : state_(std::make_shared<State>(io, std::move(page), std::move(handlers))) {
    beast::error_code ec;
    const net::ip::address address = net::ip::make_address(host, ec);
    if (ec) throw Error(fmt::format("--host {}: not an IP address ({})", host, ec.message()));
    const tcp::endpoint endpoint(address, port);
    tcp::acceptor& a = state_->acceptor;
    a.open(endpoint.protocol(), ec);
    if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) a.bind(endpoint, ec);
    if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
    if (ec) throw Error(fmt::format("{}:{}: cannot listen: {}", host, port, ec.message()));
    state_->accept();
}

LiveServer::~LiveServer() {
    beast::error_code ignored;
    state_->acceptor.close(ignored);
    state_->retry.cancel();
}

uint16_t LiveServer::port() const {
    beast::error_code ec;
    const tcp::endpoint endpoint = state_->acceptor.local_endpoint(ec);
    return ec ? 0 : endpoint.port();
}

void LiveServer::broadcast_frame(std::string text) {
    auto shared = std::make_shared<const std::string>(std::move(text));
    state_->open_connections();
    for (auto& weak : state_->connections) {
        if (auto c = weak.lock()) c->send(shared, true);
    }
}

void LiveServer::broadcast(std::string text) {
    auto shared = std::make_shared<const std::string>(std::move(text));
    state_->open_connections();
    for (auto& weak : state_->connections) {
        if (auto c = weak.lock()) c->send(shared, false);
    }
}

void LiveServer::send(LiveConnection& to, std::string text) {
    to.send(std::make_shared<const std::string>(std::move(text)), false);
}

size_t LiveServer::connections() const { return state_->open_connections(); }

}  // namespace pivot::cli
