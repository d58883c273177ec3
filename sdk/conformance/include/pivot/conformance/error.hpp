#pragma once
// What the kit throws: a bad command line, a plugin that does not load, a
// malformed problem or expectation file. The message names the file, line
// or option.
#include <stdexcept>
#include <string>

namespace pivot::conformance {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace pivot::conformance
