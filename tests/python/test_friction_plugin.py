"""A friction-model plugin (tests/plugins/test_friction_box.c, plain C) loaded from Python and used by a scene."""
import os

import numpy as np
import pytest

import pivot

G = 9.81
H = 0.01


def sliding_block_scene(model, mu, plugin_paths=None):
    """A 2 kg block sliding along x at 3 m/s on a plane, both of a material with this friction model."""
    settings = {"timestep": H, "gravity": [0, 0, -G], "solver": "dantzig"}
    if plugin_paths:
        settings["plugin_paths"] = plugin_paths
    return {
        "format": "pivot-scene/1",
        "settings": settings,
        "materials": {"default": {"friction": {"model": model, "mu": mu}}},
        "bodies": [{"name": "block", "mass": 2.0, "inertia": [0.01333, 0.01333, 0.01333],
                    "position": [0, 0, 0.1], "linear_velocity": [3.0, 0, 0],
                    "shapes": [{"type": "box", "size": [0.2, 0.2, 0.2]}]}],
        "static_shapes": [{"type": "plane", "normal": [0, 0, 1], "offset": 0}],
    }


def speed_lost_per_step(world, steps=20):
    before = world.body_linear_velocity("block")[0]
    world.step(steps)
    return (before - world.body_linear_velocity("block")[0]) / steps


def test_the_plugin_loads_and_is_listed(friction_plugin):
    engine = pivot.Engine()
    assert "test.friction.box" not in {p["id"] for p in engine.plugins()}
    engine.load_plugins(friction_plugin)
    mine = {p["id"]: p for p in engine.plugins() if p["file"] == str(friction_plugin.resolve())}
    assert "test.friction.box" in mine and mine["test.friction.box"]["kind"] == "friction"
    assert engine.find_plugin("friction", "test.friction.box")["file"] == str(friction_plugin.resolve())


def test_a_block_slides_with_the_plugins_mu(friction_plugin):
    # Sliding, the box model's tangent rows sit at their bound mu f_n with
    # f_n = m g (flat ground, no rotation): the block loses mu g h of speed
    # per step, exactly as far as the solver's acceptance (1e-6 N s on a 2 kg
    # block: 5e-7 m/s per step at most; 1e-9 is what the rows give).
    engine = pivot.Engine()
    engine.load_plugins(friction_plugin)
    for mu in (0.2, 0.5):
        world = engine.scene_from_json(sliding_block_scene("test.friction.box", mu))
        world.step(5)  # settled onto the plane
        assert speed_lost_per_step(world) == pytest.approx(mu * G * H, abs=1e-9)
        contacts = world.contacts()
        assert len(contacts) > 0
        tangential = np.linalg.norm(contacts["friction"], axis=1).sum()
        assert tangential == pytest.approx(mu * contacts["normal_force"].sum(), rel=1e-6)
    # The first-party box model gives the same deceleration: the plugin is used, and used alike.
    reference = engine.scene_from_json(sliding_block_scene("pivot.friction.box", 0.5))
    reference.step(5)
    assert speed_lost_per_step(reference) == pytest.approx(0.5 * G * H, abs=1e-9)


def test_a_scene_names_the_plugin_in_its_plugin_paths(friction_plugin):
    # settings.plugin_paths are relative to base_dir for a scene given as JSON.
    engine = pivot.Engine()
    scene = sliding_block_scene("test.friction.box", 0.3, plugin_paths=[friction_plugin.name])
    world = engine.scene_from_json(scene, base_dir=friction_plugin.parent)
    world.step(5)
    assert speed_lost_per_step(world) == pytest.approx(0.3 * G * H, abs=1e-9)
    with pytest.raises(pivot.Error, match="test.friction.box"):
        pivot.Engine().scene_from_json(sliding_block_scene("test.friction.box", 0.3))  # not loaded


def test_a_value_the_plugin_refuses_is_reported(friction_plugin):
    # The plugin's create() refuses mu = 7 exactly (see its source).
    engine = pivot.Engine()
    engine.load_plugins(os.fspath(friction_plugin))
    with pytest.raises(pivot.Error):
        world = engine.scene_from_json(sliding_block_scene("test.friction.box", 7.0))
        world.step(10)
