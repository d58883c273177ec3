"""Cables and ropes: node arrays filled by the engine in place, winches."""
import numpy as np
import pytest

import pivot


def test_cable_nodes_of_a_scene(engine, scenes):
    world = engine.load_scene(scenes / "cable_crane.json")
    assert world.cable_names == ["wire"]
    wire = world.find_cable("wire")
    assert world.cable_node_count(wire) == 17  # 16 elements
    nodes = world.cable_nodes("wire")
    assert nodes.shape == (17, 3) and nodes.dtype == np.float64 and nodes.flags.c_contiguous
    # At rest when added: evenly spaced from start to end (the scene's numbers, to rounding).
    np.testing.assert_allclose(nodes, np.linspace([8, 0, 1.85], [8, 0, 1.0], 17), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(world.cable_velocities(wire), np.zeros((17, 3)))
    assert "wire/attach0" in world.joint_names and "wire/attach1" in world.joint_names


def test_cable_arrays_are_filled_in_place(engine, scenes):
    # out=: the engine's pivot_world_get_cable_nodes writes straight into the
    # array's memory, so one buffer serves every frame (no allocation, no copy).
    world = engine.load_scene(scenes / "cable_crane.json")
    positions = np.zeros((17, 3))
    velocities = np.zeros((17, 3))
    address = positions.__array_interface__["data"][0]
    view = positions[:, 2]  # a view sees the new values: the memory itself was written
    frames = []
    for _ in range(3):
        world.step(20)
        assert world.cable_nodes(0, out=positions) is positions
        assert world.cable_velocities(0, out=velocities) is velocities
        assert positions.__array_interface__["data"][0] == address
        np.testing.assert_array_equal(view, positions[:, 2])
        np.testing.assert_array_equal(positions, world.cable_nodes(0))
        np.testing.assert_array_equal(velocities, world.cable_velocities(0))
        frames.append(positions.copy())
    assert not np.array_equal(frames[0], frames[2])  # the crane moves the wire
    with pytest.raises(ValueError, match=r"\(17, 3\)"):
        world.cable_nodes(0, out=np.zeros((16, 3)))
    with pytest.raises(TypeError):
        world.cable_nodes(0, out=np.zeros((17, 3), dtype=np.float32))
    with pytest.raises(TypeError):
        world.cable_nodes(0, out=np.zeros((3, 17)).T)  # not C-contiguous
    read_only = np.zeros((17, 3))
    read_only.flags.writeable = False
    with pytest.raises(ValueError):
        world.cable_nodes(0, out=read_only)
    with pytest.raises(pivot.Error):
        world.cable_nodes(1)


def test_a_cable_built_in_code_hangs_and_reels(engine):
    world = engine.create_world(timestep=0.01)
    world.add_body(name="weight", mass=5.0, inertia=(0.01, 0.01, 0.01), position=(0, 0, -1))
    wire = world.add_cable(name="wire", elements=8, start=(0, 0, 0), end=(0, 0, -1), radius=0.005,
                           attachments=[{"node": 0}, {"node": -1, "body": "weight"}])
    np.testing.assert_allclose(world.cable_nodes(wire), np.linspace([0, 0, 0], [0, 0, -1], 9), atol=1e-12)
    assert world.cable_length(wire) == pytest.approx(1.0, abs=1e-12)
    world.set_cable_reel_speed(wire, -0.1)  # reels in at 0.1 m/s
    world.step(100)
    assert world.cable_length(wire) == pytest.approx(0.9, abs=1e-9)
    assert world.body_position("weight")[2] > -1.0
    with pytest.raises(TypeError, match="attachments"):
        world.add_cable(name="bad", attachments=[("node", 0)])
    world.remove_cable(wire)
    assert world.is_removed("cable", wire)


def test_a_rope_hoists_a_load(engine):
    world = engine.create_world(timestep=0.01)
    world.add_body(name="load", mass=10.0, inertia=(1, 1, 1), position=(0, 0, -2))
    rope = world.add_rope(name="hoist", points=[{"point": (0, 0, 0)}, {"body": "load", "point": (0, 0, -2)}])
    assert world.rope_names == ["hoist"]
    world.step(50)
    state = world.rope_state(rope)
    assert state["point_count"] == 2 and state["length"] == pytest.approx(2.0, abs=1e-12)
    np.testing.assert_allclose(world.rope_path(rope), [[0, 0, 0], [0, 0, 0], [0, 0, -2], [0, 0, -2]], atol=1e-9)
    # Hanging at rest, then reeled in at constant speed: the rope carries the
    # weight, to the solver's acceptance (1e-6 N s / 0.01 s = 1e-4 N).
    assert state["tension"] == pytest.approx(10 * 9.81, abs=1e-3)
    world.set_rope_reel_speed(rope, -0.1)
    world.step(100)
    assert world.rope_state(rope)["length"] == pytest.approx(1.9, abs=1e-9)
    assert world.body_position("load")[2] == pytest.approx(-1.9, abs=1e-6)
    assert world.rope_state(rope)["tension"] == pytest.approx(10 * 9.81, abs=1e-3)
