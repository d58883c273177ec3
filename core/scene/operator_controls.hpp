#pragma once
// The scene key `controls` (docs/scene-format.md "controls"): which key or
// slider of an operator drives which motor or winch at which speed. A world
// does not hold them (nothing in a step reads them): `pivot serve` maps an
// operator's keys to them, `pivot run` reads and checks them only.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "scene/json_reader.hpp"
#include "world/world.hpp"

namespace pivot {

struct OperatorControl {
    enum class Target : uint8_t { joint, cable, rope };
    std::string name;   // unique among the controls; the object's name unless given
    Target target = Target::joint;
    std::string object;  // the joint, cable or rope
    uint32_t index = 0;  // its index in the world
    // The keys (DOM KeyboardEvent.key values) that ask for -speed and
    // +speed while held; empty: a slider only.
    std::array<std::string, 2> keys;
    double speed = 0.0;  // > 0: rad/s or m/s (a motor's target velocity), m/s (a winch's reel speed)
};

const char* target_name(OperatorControl::Target target);

// Reads and checks the `controls` array against the built world (the
// joint has a motor, the cable or rope exists, no key is used twice).
std::vector<OperatorControl> read_operator_controls(const scene::JsonAt& at, const World& world);

// Sets the control's motor velocity or reel speed to `value` (within
// [-speed, speed]; the caller checks).
void apply_operator_control(World& world, const OperatorControl& control, double value);

}  // namespace pivot
