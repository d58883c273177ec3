"""A friction-model plugin (tests/plugins/test_friction_box.c, plain C) loaded from Python and used by a scene."""
import os
import threading

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


def test_loading_waits_for_steps_while_python_and_other_worlds_go_on(friction_plugin, scenes):
    # load_plugins waits without the GIL until no world of the engine steps,
    # then loads holding the GIL and the plugin lock, so that neither a step
    # nor a call that reads the plugins (find_plugin, create_world, a
    # world's set_solver) runs meanwhile. Meanwhile, no deadlock: this
    # thread's registry readers and another world's steps go on and finish.
    engine = pivot.Engine()
    stepping = engine.load_scene(scenes / "pyramid.json")
    done = threading.Event()
    ticks, errors = [], []

    def reader(own):  # a world of its own: a world is used by one thread at a time
        try:
            while not done.is_set():
                assert engine.find_plugin("solver", "pgs")["id"] == "pivot.solver.pgs"
                own.step(1)
                own.set_solver("pgs")
                ticks.append(engine.create_world().body_count)
        except BaseException as error:  # noqa: B036 (reported below, not lost in the thread)
            errors.append(error)

    # Made first: load_scene waits for the steps like load_plugins (a scene may name plugins).
    readers = [threading.Thread(target=reader, args=(engine.load_scene(scenes / "pyramid.json"),)) for _ in range(2)]
    stepper = threading.Thread(target=stepping.step, args=(1200,))
    stepper.start()
    while True:  # until the step is under way
        try:
            stepping.time
        except pivot.Error:
            break
        assert stepper.is_alive()
    for thread in readers:
        thread.start()
    try:
        engine.load_plugins(friction_plugin)
    finally:
        done.set()
        stepper.join()
        for thread in readers:
            thread.join()
    assert not errors
    assert ticks  # Python ran while the loader waited
    assert stepping.time == pytest.approx(20.0, abs=1e-9)
    assert engine.find_plugin("friction", "test.friction.box")["kind"] == "friction"
