#pragma once
// Deterministic random numbers for the conformance problems: the same seed
// gives the same problem, bit for bit, with every standard library.
// std::mt19937_64's output sequence is fixed by the C++ standard; the
// std::*_distribution classes are not (their algorithms are
// implementation-defined), so the conversion to doubles is done here.
#include <array>
#include <cstdint>
#include <random>

namespace pivot::conformance {

class Random {
public:
    explicit Random(uint64_t seed) : engine_(seed) {}

    // Uniform in [0, 1): the top 53 bits of one 64-bit draw, times 2^-53.
    double uniform();
    // Uniform in [low, high).
    double uniform(double low, double high);
    // Uniform integer in 0 .. count-1 (count > 0); from uniform(), so the
    // tiny bias of the scaling is the same on every platform.
    uint32_t index(uint32_t count);
    // A unit vector, uniform on the sphere (rejection from the cube, then
    // normalized: only +, *, / and sqrt, all correctly rounded in IEEE 754).
    std::array<double, 3> unit_vector();
    // A unit quaternion (w, x, y, z), uniform over rotations (same method).
    std::array<double, 4> unit_quaternion();

private:
    std::mt19937_64 engine_;
};

}  // namespace pivot::conformance
