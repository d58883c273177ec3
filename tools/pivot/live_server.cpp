// The HTTP and WebSocket server of `pivot serve` (live_server.hpp), on
// Boost.Beast and Boost.Asio (header-only, from Debian's libboost-dev).
#include "live_server.hpp"

#include <chrono>
#include <deque>
#include <optional>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
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

}  // namespace

struct LiveServer::State : std::enable_shared_from_this<LiveServer::State> {
    net::io_context& io;
    tcp::acceptor acceptor;
    std::string page;
    Handlers handlers;
    std::vector<std::weak_ptr<LiveConnection>> connections;

    State(net::io_context& io_context, std::string page_text, Handlers h)
        : io(io_context), acceptor(io_context), page(std::move(page_text)), handlers(std::move(h)) {}
    void accept();
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
            closed_ = true;
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
        server_->connections.push_back(weak_from_this());
        send(std::make_shared<const std::string>(server_->handlers.greeting()), false);
        read();
    }

    void read() {
        ws_.async_read_some(buffer_, kReadChunk,
                            beast::bind_front_handler(&LiveConnection::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, size_t) {
        if (ec) {  // closed or timed out: this connection ends, the server goes on
            closed_ = true;
            return;
        }
        if (buffer_.size() > LiveServer::kMaxMessageBytes) {  // too long: close 1009, after the rest of it
            buffer_.consume(buffer_.size());
            closed_ = true;
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
        read();
    }

    void write_next() {
        ws_.async_write(net::buffer(*queue_.front().text),
                        beast::bind_front_handler(&LiveConnection::on_write, shared_from_this()));
    }

    void on_write(beast::error_code ec, size_t) {
        if (ec) {
            closed_ = true;
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
    bool closed_ = false;
};

namespace {

// One HTTP request: the page, or the upgrade to a LiveConnection.
class HttpExchange : public std::enable_shared_from_this<HttpExchange> {
public:
    HttpExchange(tcp::socket&& socket, std::shared_ptr<LiveServer::State> server)
        : stream_(std::move(socket)), server_(std::move(server)) {}

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
                respond(http::status::bad_request, "text/plain", "bad request\n", 11);
            }
            return;
        }
        http::request<http::string_body> request = parser_->release();
        const std::string target(request.target());
        if (websocket::is_upgrade(request)) {
            if (target == "/ws") {
                stream_.expires_never();
                std::make_shared<LiveConnection>(stream_.release_socket(), server_)->start(std::move(request));
                return;
            }
            respond(http::status::not_found, "text/plain", "no WebSocket here: /ws\n", request.version());
            return;
        }
        if (request.method() != http::verb::get && request.method() != http::verb::head) {
            respond(http::status::method_not_allowed, "text/plain", "GET only\n", request.version());
        } else if (target == "/" || target == "/index.html") {
            respond(http::status::ok, "text/html; charset=utf-8", server_->page, request.version(),
                    request.method() == http::verb::head);
        } else {
            respond(http::status::not_found, "text/plain", "not found: the page is at /\n", request.version());
        }
    }

    void respond(http::status status, const char* type, const std::string& body, unsigned version,
                 bool head = false) {
        auto response = std::make_shared<http::response<http::string_body>>(status, version);
        response->set(http::field::server, "pivot serve");
        response->set(http::field::content_type, type);
        response->set(http::field::cache_control, "no-store");
        response->keep_alive(false);
        response->body() = head ? std::string() : body;
        response->content_length(body.size());
        http::async_write(stream_, *response,
                          [self = shared_from_this(), response](beast::error_code, size_t) {
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
        if (!ec) std::make_shared<HttpExchange>(std::move(socket), self)->start();
        self->accept();
    });
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
}

uint16_t LiveServer::port() const {
    beast::error_code ec;
    const tcp::endpoint endpoint = state_->acceptor.local_endpoint(ec);
    return ec ? 0 : endpoint.port();
}

namespace {

template <typename Each>
void for_each_open(std::vector<std::weak_ptr<LiveConnection>>& connections, Each&& each) {
    size_t kept = 0;
    for (size_t i = 0; i < connections.size(); ++i) {
        if (auto c = connections[i].lock()) {
            each(*c);
            if (kept != i) connections[kept] = std::move(connections[i]);  // (a self-move would empty it)
            ++kept;
        }
    }
    connections.resize(kept);
}

}  // namespace

void LiveServer::broadcast_frame(std::string text) {
    auto shared = std::make_shared<const std::string>(std::move(text));
    for_each_open(state_->connections, [&](LiveConnection& c) { c.send(shared, true); });
}

void LiveServer::broadcast(std::string text) {
    auto shared = std::make_shared<const std::string>(std::move(text));
    for_each_open(state_->connections, [&](LiveConnection& c) { c.send(shared, false); });
}

void LiveServer::send(LiveConnection& to, std::string text) {
    to.send(std::make_shared<const std::string>(std::move(text)), false);
}

size_t LiveServer::connections() const {
    size_t open = 0;
    for_each_open(state_->connections, [&](LiveConnection&) { ++open; });
    return open;
}

}  // namespace pivot::cli
