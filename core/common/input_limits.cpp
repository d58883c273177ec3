#include "common/input_limits.hpp"

#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

void check_json_depth(std::string_view text, const std::string& source, size_t max_depth) {
    size_t depth = 0, line = 1, line_start = 0;
    bool in_string = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') line = line + 1, line_start = i + 1;
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) {
                throw Error(fmt::format("{}: line {}, column {}: JSON nested deeper than {} levels (arrays and "
                                        "objects); refused before parsing",
                                        source, line, i - line_start + 1, max_depth));
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;  // unbalanced brackets are the parser's to report
        }
    }
}

std::string read_input_file(const std::filesystem::path& file, const char* what) {
    const std::string source = file.string();
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status)) throw Error(fmt::format("{}: file not found", source));
    if (std::filesystem::is_directory(status)) throw Error(fmt::format("{}: is a folder, not a {}", source, what));
    if (!std::filesystem::is_regular_file(status)) {
        throw Error(
            fmt::format("{}: not a regular file (a device, pipe or socket); a {} must be a file", source, what));
    }
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) throw Error(fmt::format("{}: cannot be read ({})", source, ec.message()));
    if (size > kMaxInputFileBytes) {
        throw Error(fmt::format("{}: {} bytes is larger than the {} MiB a {} may have", source, size,
                                kMaxInputFileBytes >> 20, what));
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot be read", source));
    std::string text(static_cast<size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    // A file that changed size while read: what was read (never more than
    // the limit) is the content.
    text.resize(static_cast<size_t>(in.gcount()));
    if (in.bad()) throw Error(fmt::format("{}: cannot be read", source));
    return text;
}

}  // namespace pivot
