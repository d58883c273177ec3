#pragma once
// The world whose saved states fuzz_save_state restores, shared with the
// program that writes its seeds (save_state_seeds.cpp): a state buffer fits
// only a world built the same way (pivot.h), so both must build exactly this
// one. Small, and with every part of a state: a box resting on the ground
// (contact rows, their warm starts and contact memory), a ball of a
// compliant material (the friction model's per-contact state), a pendulum
// on a revolute joint with a motor (joint warm starts, the motor target) and
// a short cable pinned to the world (an element plugin's coordinates).
#include <pivot/pivot.h>

namespace pivot::fuzz {

inline constexpr const char* kSaveStateScene = R"({
  "format": "pivot-scene/1",
  "settings": { "timestep": 0.005, "gravity": [0, 0, -9.81] },
  "materials": {
    "soft": { "friction": { "model": "compliant", "stiffness": 1e5, "restitution": 0.5, "mu": 0.3 } }
  },
  "bodies": [
    { "name": "box", "mass": 1.0, "inertia": [0.0067, 0.0067, 0.0067], "position": [0, 0, 0.1],
      "shapes": [ { "type": "box", "size": [0.2, 0.2, 0.2] } ] },
    { "name": "ball", "mass": 1.0, "inertia": [0.004, 0.004, 0.004], "position": [1, 0, 0.3],
      "shapes": [ { "type": "sphere", "radius": 0.1, "material": "soft" } ] },
    { "name": "bob", "mass": 2.0, "inertia": [0.01, 0.01, 0.01], "position": [0.5, 2, 1] }
  ],
  "static_shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ],
  "joints": [
    { "name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
      "anchor": [0, 2, 1.5], "axis": [0, 1, 0], "motor": { "velocity": 0.5, "max_force": 2 } }
  ],
  "cables": [
    { "name": "wire", "start": [2, 0, 1], "end": [3, 0, 1], "elements": 2,
      "radius": 0.005, "density": 7850, "youngs_modulus": 2e11,
      "attach": [ { "node": 0, "body": "world", "type": "spherical" } ] }
  ]
})";

// The world, or NULL with pivot_last_error() saying why.
inline pivot_world* create_save_state_world(pivot_engine* engine) {
    pivot_world* world = nullptr;
    if (pivot_world_create_from_json(engine, kSaveStateScene, nullptr, &world) != PIVOT_OK) return nullptr;
    return world;
}

}  // namespace pivot::fuzz
