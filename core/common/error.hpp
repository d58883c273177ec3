#pragma once
// The one exception type of the engine's C++ core. Its message is written for
// the person who has to act on it: it names the file, object and field.
#include <stdexcept>
#include <string>

namespace pivot {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message);
};

}  // namespace pivot
