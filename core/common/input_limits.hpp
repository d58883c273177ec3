#pragma once
// Limits on what the engine reads from outside (scene files, LCP files, JSON
// text given to the C API) where physics sets none: they keep a hostile or
// broken input from exhausting the stack or memory before any other check
// can say what is wrong with it. docs/scene-format.md lists them.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace pivot {

// Deepest nesting of JSON arrays and objects accepted anywhere (a scene needs
// 5; plugin options and friction parameters a few more). Deeper documents
// are refused before they are parsed: copying or destroying a JSON value is
// recursive, and 150 000 levels overflow a thread's stack.
constexpr size_t kMaxJsonDepth = 64;

// Largest scene or LCP file read (bytes): far above any real scene (a
// 10 000-body scene is ~2 MB), small enough that reading it cannot exhaust
// memory.
constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{256} << 20;

// Throws pivot::Error "<source>: line L, column C: JSON nested deeper than
// kMaxJsonDepth levels" when `text` nests arrays or objects deeper than
// `max_depth` (brackets inside strings do not count). Linear in the text, no
// allocation.
void check_json_depth(std::string_view text, const std::string& source, size_t max_depth = kMaxJsonDepth);

// The whole content of a regular file of at most kMaxInputFileBytes; throws
// pivot::Error naming the file when it is missing, a folder, not a regular
// file (a device, a pipe: /dev/zero never ends), too large or unreadable.
// `what` names the kind of file in messages ("scene file").
std::string read_input_file(const std::filesystem::path& file, const char* what);

}  // namespace pivot
