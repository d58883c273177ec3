#pragma once
// What the fuzz harnesses share (docs/fuzzing.md): a quiet engine log, the
// scene inputs a harness must skip, and the one C API failure that is a
// finding rather than an expected outcome.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <pivot/pivot.h>

// libFuzzer's own mutations (bytes flipped, inserted, spliced from the
// dictionary); provided by libFuzzer, or by the replay program, which never
// mutates.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace pivot::fuzz {

// The engine logs warnings (a diverging step, a refused solve) to stderr;
// thousands of inputs a second would drown the fuzzer's own output and slow
// it down. Called before the first engine call; PIVOT_LOG_LEVEL set in the
// environment still wins (to see what the engine says about a crash file).
inline void quiet_engine_log() { setenv("PIVOT_LOG_LEVEL", "off", /*overwrite=*/0); }

// True when `json` is a scene whose settings name plugin_paths. The loader
// loads those files into the registry by design (a scene brings its
// plugins), so a fuzzer that found "../.." or "/usr/lib" would dlopen
// arbitrary libraries and keep them loaded for every later input: harnesses
// skip such inputs. A SAX pass, so it sees the keys exactly as the loader's
// parser does (escapes such as "plugin\u005fpaths" included) without
// building a document; text that is not JSON is not skipped (the loader
// refuses it before reading any key).
inline bool names_plugin_paths(std::string_view json) {
    using json_t = nlohmann::json;
    class Finder final : public json_t::json_sax_t {
    public:
        bool found = false;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(json_t::number_integer_t) override { return true; }
        bool number_unsigned(json_t::number_unsigned_t) override { return true; }
        bool number_float(json_t::number_float_t, const json_t::string_t&) override { return true; }
        bool string(json_t::string_t&) override { return true; }
        bool binary(json_t::binary_t&) override { return true; }
        bool start_object(std::size_t) override { return open(true); }
        bool end_object() override { return close(); }
        bool start_array(std::size_t) override { return open(false); }
        bool end_array() override { return close(); }
        bool key(json_t::string_t& key) override {
            if (depth_ == 1) top_key_ = key;
            if (depth_ == 2 && in_settings_ && key == "plugin_paths") found = true;
            return !found;  // stops the parse once found
        }
        bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
            return false;
        }

    private:
        // Depth 1 is the document's object, depth 2 the value of one of its
        // keys: the settings object when that key is "settings" (the loader
        // keeps the last of duplicate keys; any one naming plugin_paths counts).
        bool open(bool object) {
            ++depth_;
            if (depth_ == 2) in_settings_ = object && top_key_ == "settings";
            return true;
        }
        bool close() {
            if (depth_ == 2) in_settings_ = false;
            --depth_;
            return true;
        }
        size_t depth_ = 0;
        bool in_settings_ = false;
        std::string top_key_;
    };
    Finder finder;
    json_t::sax_parse(json.begin(), json.end(), &finder);
    return finder.found;
}

// True when a scene that loaded (valid JSON, nested at most 64 deep: safe
// to parse here) turns the step guard off or lengthens it
// (settings.step_time_limit 0 or above the default 1 s): it asks for steps
// as long as its physics takes, so harnesses load it without stepping.
// The last of duplicate keys counts, as in the loader.
inline bool lengthens_step_guard(std::string_view loaded_json) {
    const nlohmann::json doc = nlohmann::json::parse(loaded_json, nullptr, false);
    if (!doc.is_object()) return false;
    const auto settings = doc.find("settings");
    if (settings == doc.end() || !settings->is_object()) return false;
    const auto guard = settings->find("step_time_limit");
    if (guard == settings->end() || !guard->is_number()) return false;
    const double seconds = guard->get<double>();
    return !(seconds > 0.0 && seconds <= 1.0);
}

// Mutations of a scene as a JSON document, for the JSON harnesses'
// LLVMFuzzerCustomMutator. libFuzzer's byte mutations almost never keep a
// scene valid JSON with known keys (after a 10-minute run, 17 of 1463 inputs
// of fuzz_scene_json's corpus got past the parser and the key checks), so
// the loader's value checks, the world's build and the step were hardly
// reached. Half of the mutations here change one value of a document that
// parses: a number to an edge of its range or a power of ten away, a string
// to another name the scene uses or a keyword, an array or object grown by a
// copy of one of its items or shrunk by one, any value replaced by a copy of
// another. The other half, and any input that does not parse, get
// libFuzzer's byte mutations.
namespace detail {

// Deeper documents are left to the byte mutations: destroying a nlohmann
// value recurses per level (the engine refuses more than 64 levels anyway).
inline bool shallow_json(const uint8_t* data, size_t size, size_t max_depth = 64) {
    size_t depth = 0;
    bool in_string = false, escaped = false;
    for (size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return false;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return true;
}

inline void mutate_value(nlohmann::json& value, const std::vector<nlohmann::json*>& nodes,
                         const std::vector<std::string>& strings, std::minstd_rand& rng) {
    static const double kEdges[] = {0.0,  -0.0, 1.0,  -1.0, 0.5,   2.0,    1e-300, 4.9e-324, 1.7976931348623157e308,
                                    1e-9, -1e-9, 1e-6, 1e6, 1e9, 1e12, 1e300, -1e300, 65536.0, 4294967296.0,
                                    9007199254740992.0};
    static const char* const kWords[] = {"", "world", "default", "box", "sphere", "capsule", "cylinder", "plane",
                                         "revolute", "prismatic", "spherical", "fixed", "universal", "cylindrical",
                                         "distance", "frictionless", "cone", "circular", "regularized", "compliant",
                                         "lemke", "dantzig", "pgs", "direct", "newton", "velocity_pgs", "last"};
    auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
    if (pick(8) == 0 && !nodes.empty()) {  // any value becomes a copy of another (type changes included)
        nlohmann::json copy = *nodes[pick(nodes.size())];
        value = std::move(copy);
        return;
    }
    if (value.is_number()) {
        const double x = value.get<double>();
        switch (pick(4)) {
            case 0: value = kEdges[pick(std::size(kEdges))]; break;
            case 1: value = x * std::pow(10.0, static_cast<double>(pick(25)) - 12.0); break;
            case 2: value = -x; break;
            default: value = static_cast<int64_t>(pick(2001)) - 1000; break;
        }
    } else if (value.is_string()) {
        if (!strings.empty() && pick(2) == 0) value = strings[pick(strings.size())];
        else value = kWords[pick(std::size(kWords))];
    } else if (value.is_array() && !value.empty()) {
        const size_t i = pick(value.size());
        if (pick(2) == 0) {  // one more body, shape, joint...: renamed, or it would only clash
            nlohmann::json copy = value[i];
            if (copy.is_object() && copy.contains("name") && copy["name"].is_string()) {
                copy["name"] = copy["name"].get<std::string>() + "_" + std::to_string(value.size());
            }
            value.push_back(std::move(copy));
        } else {
            value.erase(i);
        }
    } else if (value.is_object() && !value.empty()) {
        auto it = std::next(value.begin(), static_cast<std::ptrdiff_t>(pick(value.size())));
        if (pick(2) == 0) {
            value.erase(it);
        } else {  // an item under another of its keys (a second body, a key of another object)
            nlohmann::json copy = it.value();
            value[it.key() + "_" + std::to_string(pick(10))] = std::move(copy);
        }
    } else if (value.is_boolean()) {
        value = !value.get<bool>();
    } else {
        value = kEdges[pick(std::size(kEdges))];
    }
}

}  // namespace detail

inline size_t mutate_json(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed);
    if (rng() % 2 == 0 || !detail::shallow_json(data, size)) return LLVMFuzzerMutate(data, size, max_size);
    nlohmann::json document = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);
    std::vector<nlohmann::json*> nodes{&document};  // every value, the document first
    std::vector<std::string> strings;
    for (size_t k = 0; k < nodes.size(); ++k) {
        nlohmann::json& node = *nodes[k];
        if (node.is_string()) strings.push_back(node.get<std::string>());
        if (node.is_structured()) {
            for (auto& child : node) nodes.push_back(&child);
        }
    }
    detail::mutate_value(*nodes[rng() % nodes.size()], nodes, strings, rng);
    const std::string text = document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, text.data(), text.size());
    return text.size();
}

// A failed C API call is an expected outcome for hostile input, except when
// the engine ran out of memory: the API turns std::bad_alloc into
// "<function>: out of memory" (core/api/api_support.hpp), and an input of a
// few kilobytes that exhausts memory is a finding. Aborts so the fuzzer
// keeps the input.
inline void expect_clean_failure(pivot_status status) {
    if (status == PIVOT_OK) return;
    const char* message = pivot_last_error();
    constexpr std::string_view kOutOfMemory = ": out of memory";
    const std::string_view text(message);
    if (text.size() >= kOutOfMemory.size() && text.substr(text.size() - kOutOfMemory.size()) == kOutOfMemory) {
        std::fprintf(stderr, "pivot fuzz: std::bad_alloc behind a C API error: %s\n", message);
        std::abort();
    }
}

}  // namespace pivot::fuzz
