"""Pivot, a real-time multibody physics engine, for Python.

    import pivot
    engine = pivot.Engine()                      # first-party plugins + PIVOT_PLUGIN_PATH
    world = engine.load_scene("scenes/crane.json")
    world.step(60)                               # 1 s at 60 Hz, without the GIL
    world.body_position("load")                  # NumPy (3,), m

Engine: plugins (load_plugins, plugins) and worlds (load_scene,
scene_from_json, create_world). World: step, bodies, joints, cables, ropes,
contacts, statistics, solvers, save_state / restore_state. Every failed
engine call raises pivot.Error (a RuntimeError) with the engine's one-line
message. SI units, world frame, quaternions (w, x, y, z). docs/python.md
in the repository is the guide.
"""

from ._pivot import (
    CONTACT_FORCE,
    CONTACT_SPECULATIVE,
    Engine,
    Error,
    World,
    __version__,
    set_log_level,
    step_stage_names,
    version,
)

# The classes are defined in the extension pivot._pivot; they are used as pivot.X.
for _name in ("Engine", "Error", "World"):
    globals()[_name].__module__ = __name__
del _name

__all__ = [
    "CONTACT_FORCE",
    "CONTACT_SPECULATIVE",
    "Engine",
    "Error",
    "World",
    "__version__",
    "set_log_level",
    "step_stage_names",
    "version",
]
