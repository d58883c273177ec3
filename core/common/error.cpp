#include "common/error.hpp"

namespace pivot {

Error::Error(const std::string& message) : std::runtime_error(message) {}

}  // namespace pivot
