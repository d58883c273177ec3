#include "pivot/conformance/random.hpp"

#include <cmath>

namespace pivot::conformance {

double Random::uniform() {
    // 2^-53: the 53 bits fill a double's significand exactly, so every value
    // is representable and the result is < 1.
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

double Random::uniform(double low, double high) { return low + (high - low) * uniform(); }

uint32_t Random::index(uint32_t count) {
    const auto i = static_cast<uint32_t>(uniform() * static_cast<double>(count));
    return i < count ? i : count - 1;
}

std::array<double, 3> Random::unit_vector() {
    for (;;) {
        const double x = uniform(-1.0, 1.0);
        const double y = uniform(-1.0, 1.0);
        const double z = uniform(-1.0, 1.0);
        const double r2 = x * x + y * y + z * z;
        // Inside the unit ball (uniform direction) and away from 0 (stable
        // normalization).
        if (r2 > 1e-4 && r2 <= 1.0) {
            const double r = std::sqrt(r2);
            return {x / r, y / r, z / r};
        }
    }
}

std::array<double, 4> Random::unit_quaternion() {
    for (;;) {
        const double w = uniform(-1.0, 1.0);
        const double x = uniform(-1.0, 1.0);
        const double y = uniform(-1.0, 1.0);
        const double z = uniform(-1.0, 1.0);
        const double r2 = w * w + x * x + y * y + z * z;
        if (r2 > 1e-4 && r2 <= 1.0) {
            const double r = std::sqrt(r2);
            return {w / r, x / r, y / r, z / r};
        }
    }
}

}  // namespace pivot::conformance
