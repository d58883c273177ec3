// The scene key `controls` (operator_controls.hpp).
#include "scene/operator_controls.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "world/physical_limits.hpp"

namespace pivot {

namespace {

using scene::JsonAt;
using scene::JsonObject;

// A key name as the browser gives it ("a", "ArrowLeft", " "): short, any
// printable text; longer would be no key.
constexpr size_t kMaxKeyLength = 32;

}  // namespace

const char* target_name(OperatorControl::Target target) {
    switch (target) {
        case OperatorControl::Target::joint: return "joint";
        case OperatorControl::Target::cable: return "cable";
        case OperatorControl::Target::rope: return "rope";
    }
    return "joint";
}

std::vector<OperatorControl> read_operator_controls(const JsonAt& at, const World& world) {
    std::vector<OperatorControl> controls;
    std::map<std::string, std::string> names;  // name -> pointer of its control
    std::map<std::string, std::string> keys;   // key -> pointer of its use
    for (size_t i = 0; i < at.array_size(); ++i) {
        const JsonAt c_at = at[i];
        const JsonObject c(c_at, {"name", "joint", "cable", "rope", "keys", "speed"});
        OperatorControl control;
        int targets = 0;
        for (const auto target : {OperatorControl::Target::joint, OperatorControl::Target::cable,
                                  OperatorControl::Target::rope}) {
            if (!c.has(target_name(target))) continue;
            ++targets;
            control.target = target;
            control.object = c.required(target_name(target), "").nonempty_string();
        }
        if (targets != 1) {
            c_at.fail(targets == 0 ? "needs one of 'joint' (a motor), 'cable' or 'rope' (a winch)"
                                   : "drives one object: give only one of 'joint', 'cable', 'rope'");
        }
        const JsonAt object_at = c.required(target_name(control.target), "");
        try {
            switch (control.target) {
                case OperatorControl::Target::joint: control.index = world.joint(control.object); break;
                case OperatorControl::Target::cable: control.index = world.cable(control.object); break;
                case OperatorControl::Target::rope: control.index = world.rope(control.object); break;
            }
        } catch (const Error& e) {  // no such object
            object_at.fail(e.what());
        }
        if (control.target == OperatorControl::Target::joint && !world.has_motor(control.index)) {
            object_at.fail(fmt::format("joint '{}' has no motor (its type has no motor velocity)", control.object));
        }
        control.name = control.object;
        if (auto v = c.optional("name")) control.name = v->nonempty_string();
        if (auto it = names.find(control.name); it != names.end()) {
            (c.has("name") ? c.required("name", "") : object_at)
                .fail(fmt::format("duplicate control name '{}' (also {})", control.name, it->second));
        }
        names.emplace(control.name, c_at.pointer());

        const JsonAt speed = c.required("speed", "rad/s or m/s: the value a key asks for");
        control.speed = speed.number();
        if (!(control.speed > 0.0)) speed.fail(fmt::format("must be > 0, got {}", control.speed));
        if (control.target != OperatorControl::Target::joint) {
            try {
                check_reel_speed(control.speed, "a winch's reel speed");
            } catch (const Error& e) {
                speed.fail(e.what());
            }
        }
        if (auto k = c.optional("keys")) {
            if (k->array_size() != 2) k->fail("expected 2 keys: the one for -speed, then the one for +speed");
            for (size_t n = 0; n < 2; ++n) {
                const JsonAt key = (*k)[n];
                control.keys[n] = key.nonempty_string();
                if (control.keys[n].size() > kMaxKeyLength) {
                    key.fail(fmt::format("a key name has at most {} bytes", kMaxKeyLength));
                }
                if (auto it = keys.find(control.keys[n]); it != keys.end()) {
                    key.fail(fmt::format("key '{}' is already used ({})", control.keys[n], it->second));
                }
                keys.emplace(control.keys[n], key.pointer());
            }
        }
        controls.push_back(std::move(control));
    }
    return controls;
}

void apply_operator_control(World& world, const OperatorControl& control, double value) {
    switch (control.target) {
        case OperatorControl::Target::joint: world.set_motor_velocity(control.index, value); break;
        case OperatorControl::Target::cable: world.set_cable_reel_speed(control.index, value); break;
        case OperatorControl::Target::rope: world.set_rope_reel_speed(control.index, value); break;
    }
}

}  // namespace pivot
