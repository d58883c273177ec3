"""pivot.World: stepping against analytic answers, state as NumPy arrays, motors, save/restore, solvers, errors."""
import json
import threading

import numpy as np
import pytest

import pivot

G = 9.81


def free_body(engine, h=0.01, z0=10.0, mass=2.0):
    world = engine.create_world(timestep=h, gravity=(0, 0, -G))
    body = world.add_body(name="ball", mass=mass, inertia=(0.1, 0.1, 0.1), position=(0, 0, z0))
    return world, body


def test_free_fall_is_the_semi_implicit_step_exactly(engine):
    # The step is semi-implicit Euler: v_n = -g h n, z_n = z_{n-1} + h v_n, so
    # z_n = z0 - g h^2 n (n + 1) / 2 exactly, up to rounding (a few ulp of 10 m
    # per step: 1e-12 m over 100 steps is far above it and far below any
    # modelling error). Against the continuous z0 - g t^2 / 2 it is below by
    # g h t / 2, the step's first-order error.
    h, z0, n = 0.01, 10.0, 100
    world, ball = free_body(engine, h, z0)
    world.step(n)
    t = n * h
    assert world.time == pytest.approx(t, abs=1e-12)
    z = world.body_position(ball)[2]
    assert z == pytest.approx(z0 - G * h * h * n * (n + 1) / 2, abs=1e-12)
    assert z0 - G * t * t / 2 - z == pytest.approx(G * h * t / 2, abs=1e-12)
    assert world.body_linear_velocity("ball")[2] == pytest.approx(-G * h * n, abs=1e-12)


def test_energies_of_a_falling_body(engine):
    world, ball = free_body(engine, mass=2.0)
    world.step(50)
    stats = world.statistics()
    v = world.body_linear_velocity(ball)
    assert stats["kinetic_energy"] == pytest.approx(0.5 * 2.0 * v @ v, rel=1e-12)
    assert stats["potential_energy"] == pytest.approx(2.0 * G * world.body_position(ball)[2], rel=1e-12)


def test_statistics_fields(engine, scenes):
    world = engine.load_scene(scenes / "box_stack.json")
    world.step(5)
    stats = world.statistics()
    for key in ("islands", "rows", "solver_failures", "fallbacks", "solver_iterations", "solver_residual",
                "max_joint_error", "step_seconds", "kinetic_energy", "potential_energy", "energy_excess",
                "diverging", "stage_seconds", "budget_limited", "large_islands", "contacts_dropped", "substeps",
                "joints_broken"):
        assert key in stats
    assert stats["islands"] >= 1 and stats["rows"] > 0
    assert stats["solver_failures"] == 0 and stats["substeps"] == 1 and stats["diverging"] is False
    stages = stats["stage_seconds"]
    assert list(stages) == pivot.step_stage_names()[:len(stages)]
    assert "solve" in stages
    # The stages partition the step's wall time (pivot.h: they sum to step_seconds).
    assert sum(stages.values()) == pytest.approx(stats["step_seconds"], rel=1e-9, abs=1e-12)


def test_body_state_get_and_set(engine):
    world, ball = free_body(engine)
    state = world.body_state(ball)
    assert set(state) == {"position", "orientation", "linear_velocity", "angular_velocity"}
    assert state["position"].shape == (3,) and state["orientation"].shape == (4,)
    np.testing.assert_array_equal(state["orientation"], [1, 0, 0, 0])
    s = np.sqrt(0.5)
    world.set_body_state("ball", position=(1, 2, 3), orientation=(s, 0, 0, s), angular_velocity=(0, 0, 1))
    np.testing.assert_array_equal(world.body_position(ball), [1, 2, 3])
    np.testing.assert_allclose(world.body_orientation(ball), [s, 0, 0, s], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(world.body_angular_velocity(ball), [0, 0, 1])
    np.testing.assert_array_equal(world.body_linear_velocity(ball), [0, 0, 0])  # kept
    with pytest.raises(pivot.Error, match="orientation"):
        world.set_body_state(ball, orientation=(2, 0, 0, 0))  # refused, not normalized
    np.testing.assert_array_equal(world.body_position(ball), [1, 2, 3])


def test_body_states_bulk_is_the_per_body_state(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    world.step(20)
    states = world.body_states()
    assert states.shape == (3, 13) and states.dtype == np.float64 and states.flags.c_contiguous
    for b in range(world.body_count):
        s = world.body_state(b)
        np.testing.assert_array_equal(states[b], np.concatenate(
            [s["position"], s["orientation"], s["linear_velocity"], s["angular_velocity"]]))
    # out=: the same array, refilled in place.
    out = np.empty((3, 13))
    address = out.__array_interface__["data"][0]
    assert world.body_states(out=out) is out
    world.step()
    world.body_states(out=out)
    assert out.__array_interface__["data"][0] == address
    np.testing.assert_array_equal(out, world.body_states())
    with pytest.raises(ValueError):
        world.body_states(out=np.empty((2, 13)))
    with pytest.raises(TypeError):
        world.body_states(out=np.empty((3, 13), dtype=np.float32))
    # set_body_states puts back what body_states read.
    saved = world.body_states()
    world.step(30)
    world.set_body_states(saved)
    np.testing.assert_allclose(world.body_states(), saved, rtol=0, atol=1e-15)


def test_forces_and_damping(engine):
    world, ball = free_body(engine, h=0.01, mass=2.0)
    world.set_body_force(ball, force=(0, 0, 2.0 * G))  # weight cancelled: it floats
    world.step(10)
    np.testing.assert_allclose(world.body_linear_velocity(ball), [0, 0, 0], atol=1e-12)
    world.set_body_force(ball)  # zeros remove it
    world.set_body_damping(ball, 0.0, 0.0)
    world.step(1)
    assert world.body_linear_velocity(ball)[2] == pytest.approx(-G * 0.01, abs=1e-12)


def test_crane_motors_run_at_the_commanded_speeds(engine, scenes):
    # slew: revolute at 0.2 rad/s (max 5000 N m); hoist: prismatic at 0.5 m/s
    # (max 3000 N) holding the 100 kg hook. After 1 s both are at speed, and a
    # rigid velocity motor holds it exactly: the coordinate advances by
    # speed x time to rounding (1e-9, far below the solver's acceptance).
    world = engine.load_scene(scenes / "crane.json")
    world.step(60)
    slew0, _ = world.joint_coordinate("slew")
    hoist0, _ = world.joint_coordinate("hoist")
    world.step(60)
    slew1, slew_rate = world.joint_coordinate("slew")
    hoist1, hoist_rate = world.joint_coordinate(world.find_joint("hoist"))
    assert slew_rate == pytest.approx(0.2, abs=1e-9)
    assert slew1 - slew0 == pytest.approx(0.2 * 1.0, abs=1e-9)
    assert hoist_rate == pytest.approx(0.5, abs=1e-9)
    assert hoist1 - hoist0 == pytest.approx(0.5 * 1.0, abs=1e-9)
    # At constant speed the hoist's motor carries the hook's weight, upwards
    # (the coordinate points down): -m g; the rows are solved to 1e-6 N s.
    assert world.joint_motor_effort("hoist") == pytest.approx(-100 * G, abs=1e-4)
    reaction = world.joint_reaction("hoist")
    assert reaction["force"].shape == (3,) and reaction["torque"].shape == (3,)
    world.set_motor_velocity("slew", 0.0)
    world.set_motor_velocity("hoist", 0.0)
    world.step(60)
    assert world.joint_coordinate("slew")[1] == pytest.approx(0.0, abs=1e-9)
    assert world.joint_coordinate("hoist")[1] == pytest.approx(0.0, abs=1e-9)


def test_position_motor_built_in_code(engine):
    world = engine.create_world(timestep=0.01, gravity=(0, 0, 0))
    world.add_body(name="wheel", mass=1.0, inertia=(0.01, 0.01, 0.01))
    hinge = world.add_joint(name="axle", type="revolute", body2="wheel", axis=(0, 0, 1), motor_mode="position",
                            motor_position=0.5, motor_max_force=100.0)
    world.step(200)
    assert world.joint_coordinate(hinge)[0] == pytest.approx(0.5, abs=1e-6)
    world.set_motor_position(hinge, -0.25)
    world.step(200)
    assert world.joint_coordinate(hinge)[0] == pytest.approx(-0.25, abs=1e-6)


def test_save_and_restore_continue_bitwise(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    world.step(30)
    state = world.save_state()
    assert isinstance(state, bytes) and len(state) > 0
    world.step(90)
    first = world.body_states()
    first_time = world.time
    first_contacts = world.contacts()
    world.restore_state(state)
    assert world.time == pytest.approx(0.5, abs=1e-12)
    world.step(90)
    assert world.time == first_time
    np.testing.assert_array_equal(world.body_states(), first)  # bitwise
    np.testing.assert_array_equal(world.contacts(), first_contacts)
    # A bytearray or memoryview is a state too; another world's is refused, nothing changed.
    world.restore_state(memoryview(bytearray(state)))
    other = engine.load_scene(scenes / "box_stack.json")
    before = other.body_states()
    with pytest.raises(pivot.Error):
        other.restore_state(state)
    np.testing.assert_array_equal(other.body_states(), before)
    with pytest.raises(TypeError):
        world.restore_state("not bytes")


def test_solver_swap_without_a_jump(engine, scenes):
    world = engine.load_scene(scenes / "box_stack.json")
    world.step(120)  # settled
    rest = world.body_states()
    for solver in ("pgs", "lemke", "pivot.solver.dantzig"):
        world.set_solver(solver)
        assert world.solver == (solver if solver.startswith("pivot.") else "pivot.solver." + solver)
        world.step(10)
        # A resting stack stays at rest through the swap (the warm start is kept).
        np.testing.assert_allclose(world.body_states()[:, :3], rest[:, :3], rtol=0, atol=1e-4)
        assert world.statistics()["solver_failures"] == 0
    world.set_fallback(["pgs"])
    with pytest.raises(pivot.Error):
        world.set_solver("no_such_solver")
    assert world.solver == "pivot.solver.dantzig"  # unchanged
    with pytest.raises(pivot.Error):
        world.set_solver("pgs", {"no_such_option": 1})


def test_contacts_are_a_structured_array(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    world.step(5)
    contacts = world.contacts()
    assert contacts.dtype.names == ("body1", "body2", "point", "normal", "depth", "normal_force", "friction",
                                    "flags", "cable1", "cable2")
    load = world.find_body("load")
    on_ground = contacts[(contacts["body1"] == load) | (contacts["body2"] == load)]
    assert len(on_ground) >= 4
    assert contacts["point"].shape == (len(contacts), 3)
    # The 500 kg load rests on the ground: the normal forces carry its weight
    # (the rows are solved to 1e-6 N s, over a 1/60 s step: 1e-4 N).
    assert on_ground["normal_force"].sum() == pytest.approx(500 * G, abs=1e-3)
    carrying = on_ground[(on_ground["flags"] & pivot.CONTACT_FORCE) != 0]
    assert len(carrying) == len(on_ground)
    assert (contacts["cable1"] == -1).all()


def test_bad_indices_names_and_keywords_raise(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    for bad in (3, 99, 2**40, -1):
        with pytest.raises(pivot.Error):
            world.body_state(bad)
    with pytest.raises(pivot.Error, match="nope"):
        world.body_position("nope")
    with pytest.raises(pivot.Error):
        world.joint_coordinate(7)
    with pytest.raises(pivot.Error):
        world.cable_nodes(0)  # the crane has no cable
    with pytest.raises(TypeError):
        world.body_state(1.5)
    with pytest.raises(TypeError, match="mas"):
        world.add_body(name="extra", mas=1.0)
    with pytest.raises(TypeError, match="mass"):
        world.add_body(name="extra", mass="heavy")
    with pytest.raises(TypeError, match=r"shapes\[0\].*sise"):
        world.add_body(name="extra", shapes=[{"type": "box", "sise": (1, 1, 1)}])
    with pytest.raises(pivot.Error, match="extra"):
        world.add_body(name="extra", mass=-1.0)
    with pytest.raises(ValueError):
        world.step(-1)
    assert world.body_count == 3  # nothing was added by the refused calls
    world.step(1)


def test_a_world_built_in_code(engine):
    world = engine.create_world(timestep=1 / 60)
    world.add_material(name="ice", friction_params={"mu": 0.05})
    world.add_material_pair(material1="ice", material2="default", friction_params={"mu": 0.1}, restitution=0.0)
    world.add_static_shape(type="plane", normal=(0, 0, 1), offset=0.0, material="default")
    block = world.add_body(name="block", mass=1.0, inertia=np.eye(3) / 600, position=(0, 0, 0.05),
                           shapes=[{"type": "box", "size": (0.1, 0.1, 0.1), "material": "ice"}])
    arm = world.add_body(name="arm", mass=1.0, position=(0, 1, 1))
    world.add_joint(name="pin", type="spherical", body2="arm", anchor=(0, 1, 2))
    assert world.body_names == ["block", "arm"] and world.joint_names == ["pin"]
    world.step(30)
    assert world.body_position(block)[2] == pytest.approx(0.05, abs=1e-3)  # resting on the plane
    world.set_body_enabled(arm, False)
    assert not world.body_enabled(arm)
    world.remove_joint("pin")
    assert world.is_removed("joint", 0)
    world.remove_body(arm)
    assert world.is_removed("body", arm) and not world.is_removed("body", block)
    assert np.isnan(world.body_states()[arm]).all()
    with pytest.raises(pivot.Error, match="removed"):
        world.body_position(arm)
    world.step(5)


def test_joint_enable_and_break(engine):
    world = engine.create_world(timestep=0.01)
    world.add_body(name="weight", mass=10.0, position=(0, 0, -1))
    link = world.add_joint(name="link", type="spherical", body2="weight", anchor=(0, 0, 0), break_force=50.0)
    world.step(2)  # 98.1 N > 50 N: it breaks
    assert world.joint_enabled(link) == (False, True)
    assert world.statistics()["joints_broken"] in (0, 1)
    world.set_joint_enabled(link, True, at_current_pose=True)
    assert world.joint_enabled(link) == (True, False)


def test_other_threads_run_while_a_world_steps(engine, scenes):
    # step() releases the GIL; this thread may go on, but not use the stepping world.
    world = engine.load_scene(scenes / "pyramid.json")
    other = engine.load_scene(scenes / "pyramid.json")
    refused = []
    stepper = threading.Thread(target=world.step, args=(600,))
    stepper.start()
    while stepper.is_alive():
        other.step(1)  # another world of the same engine steps concurrently
        try:
            world.time
        except pivot.Error as error:
            refused.append(str(error))
    stepper.join()
    assert all("another thread" in message for message in refused)
    assert world.time == pytest.approx(10.0, abs=1e-9)
    # The same steps taken on this thread alone give the same states (steps are deterministic).
    alone = engine.load_scene(scenes / "pyramid.json")
    alone.step(600)
    np.testing.assert_array_equal(alone.body_states(), world.body_states())


def test_a_scene_as_bytes_and_the_repr(engine):
    scene = {"format": "pivot-scene/1", "settings": {"timestep": 0.01},
             "bodies": [{"name": "b", "mass": 1.0, "inertia": [1, 1, 1], "position": [0, 0, 1]}]}
    world = engine.scene_from_json(json.dumps(scene).encode())
    assert "1 bodies" in repr(world)


class Blocking:
    """An argument whose conversion (__index__, __float__) waits: the calling thread lets others run meanwhile."""

    def __init__(self, value):
        self.value = value
        self.entered = threading.Event()
        self.release = threading.Event()

    def wait(self):
        self.entered.set()
        assert self.release.wait(30)
        return self.value

    def __index__(self):
        return self.wait()

    def __float__(self):
        return float(self.wait())


@pytest.mark.parametrize("conversion", ["__index__", "__float__"])
def test_step_is_refused_while_another_thread_converts_arguments(engine, conversion):
    # The call holds the world from its first line: a step on another thread
    # (which releases the GIL for the whole step) would otherwise run inside it.
    world, ball = free_body(engine)
    if conversion == "__index__":
        argument = Blocking(ball)
        call = lambda: world.body_position(argument)  # noqa: E731
    else:
        argument = Blocking(1.0)
        call = lambda: world.set_body_force(ball, force=(argument, 0, 0))  # noqa: E731
    results = []
    caller = threading.Thread(target=lambda: results.append(call()))
    caller.start()
    try:
        assert argument.entered.wait(30)
        with pytest.raises(pivot.Error, match="another call on this World"):
            world.step()
        assert world.time == 0.0  # other calls go on: they hold the GIL for their C calls
    finally:
        argument.release.set()
        caller.join()
    assert len(results) == 1
    world.step()  # the call returned: the world steps again
    assert world.time == pytest.approx(0.01, abs=1e-15)


def test_a_conversion_that_calls_back_into_its_world(engine):
    world, ball = free_body(engine)

    class Steps:
        def __index__(self):
            world.step()
            return ball

    class Reads:
        def __index__(self):
            return world.find_body("ball")

    # step() from inside a call on the same thread: refused (its pivot.Error is the call's), not a deadlock.
    with pytest.raises(pivot.Error, match="another call on this World"):
        world.body_position(Steps())
    assert world.time == 0.0
    # Other calls nest.
    np.testing.assert_array_equal(world.body_position(Reads()), [0, 0, 10])
    world.step()
    assert world.time == pytest.approx(0.01, abs=1e-15)


def test_a_refused_row_of_set_body_states_changes_no_body(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    twin = engine.load_scene(scenes / "crane.json")
    world.step(10)
    twin.step(10)
    before = world.body_states()
    states = before.copy()
    states[:, 0] += 1.0  # every body moved along x ...
    states[:, 7] = 2.0
    states[2, 3:7] = (2, 0, 0, 0)  # ... but the last row's orientation is refused
    with pytest.raises(pivot.Error, match="orientation"):
        world.set_body_states(states)
    np.testing.assert_array_equal(world.body_states(), before)  # bitwise: bodies 0 and 1 are back
    # Undone completely: it goes on as the twin that never saw the call.
    world.step(20)
    twin.step(20)
    np.testing.assert_array_equal(world.body_states(), twin.body_states())
    # A disabled body's velocity is refused too (by the engine, past any check of the values).
    states = world.body_states()
    states[0, 0] += 1.0
    world.set_body_enabled(2, False)
    states[2, 7:10] = (1, 0, 0)
    before = world.body_states()
    with pytest.raises(pivot.Error, match="disabled"):
        world.set_body_states(states)
    np.testing.assert_array_equal(world.body_states(), before)


def test_out_must_be_aligned_and_native(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")
    # A C-contiguous, writable float64 view at an odd address: the engine writes through a double*.
    unaligned = np.frombuffer(bytearray(8 * 3 * 13 + 1), offset=1).reshape(3, 13)
    assert unaligned.flags.c_contiguous and unaligned.flags.writeable and not unaligned.flags.aligned
    with pytest.raises(TypeError, match="aligned"):
        world.body_states(out=unaligned)
    assert not unaligned.any()  # nothing written
    with pytest.raises(TypeError):
        world.body_states(out=np.zeros((3, 13), dtype=">f8" if np.little_endian else "<f8"))
    # As an input it is copied into an aligned array first: fine.
    unaligned[:] = world.body_states()
    unaligned[0, 0] += 1.0
    world.set_body_states(unaligned)
    np.testing.assert_array_equal(world.body_states(), unaligned)
    position = np.frombuffer(bytearray(8 * 3 + 1), offset=1)
    position[:] = (1, 2, 3)
    world.set_body_state(0, position=position)
    np.testing.assert_array_equal(world.body_position(0), [1, 2, 3])


def test_text_with_a_nul_is_refused_not_cut_short(engine, scenes):
    world, ball = free_body(engine)
    with pytest.raises(ValueError, match="name"):
        world.add_body(name="extra\0ignored")
    with pytest.raises(ValueError, match=r"shapes\[0\] material"):
        world.add_body(name="extra", shapes=[{"type": "sphere", "radius": 0.1, "material": "default\0x"}])
    with pytest.raises(ValueError, match="type"):
        world.add_joint(name="pin", type="spherical\0x", body2="ball")
    with pytest.raises(ValueError, match="friction_params"):
        world.add_material(name="ice", friction_params='{"mu": 0.1}\0 and more')
    with pytest.raises(ValueError, match="set_body_friction"):
        world.set_body_friction(ball, '{"mu": 0.3}\0junk')
    with pytest.raises(ValueError, match="body"):
        world.body_position("ball\0junk")  # would find "ball"
    with pytest.raises(ValueError, match="find_body"):
        world.find_body("ball\0junk")
    with pytest.raises(ValueError, match="solver"):
        world.set_solver("pgs\0junk")
    with pytest.raises(ValueError, match="scene"):
        engine.scene_from_json(b'{"format": "pivot-scene/1"}\0junk')
    with pytest.raises(ValueError, match="name"):
        engine.find_plugin("solver", "pgs\0junk")
    assert world.body_count == 1 and world.joint_count == 0 and world.solver is None


def test_numbers_follow_one_rule_everywhere(engine):
    from decimal import Decimal
    from fractions import Fraction

    world, ball = free_body(engine)
    # Strings are not numbers, whichever argument or keyword they are given to.
    for call in (lambda: world.set_body_force(ball, force=["1", "2", "3"]),
                 lambda: world.set_body_force(ball, force=np.array(["1", "2", "3"])),
                 lambda: world.set_body_state(ball, position=["1", "2", "3"]),
                 lambda: world.set_body_state(ball, position="123"),
                 lambda: world.set_body_states([["1"] * 13]),
                 lambda: world.set_body_states(world.body_states().astype(str)),
                 lambda: world.add_body(name="extra", position=["1", "2", "3"]),
                 lambda: world.add_body(name="extra", position=np.array(["1", "2", "3"])),
                 lambda: engine.create_world(gravity=np.array(["0", "0", "-9.81"])),
                 lambda: world.set_body_force(ball, force=np.array([1j, 0, 0]))):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="3 numbers"):
        world.set_body_force(ball, force=np.zeros(4))
    with pytest.raises(ValueError, match=r"\(1, 13\)"):
        world.set_body_states(np.zeros((2, 13)))
    assert world.body_count == 1
    # Real numbers of any kind are: ints, floats, NumPy scalars and arrays of any real dtype or layout (a
    # strided view), Decimal, Fraction.
    for position in ([1, 2, 3], (1.0, 2.0, 3.0), np.array([1, 2, 3], dtype=np.int32),
                     np.array([1, 2, 3], dtype=np.float32), [np.float32(1), np.int64(2), Decimal(3)],
                     np.array([Fraction(1), 2, 3.0], dtype=object), np.array([[1.0, 0], [2, 0], [3, 0]])[:, 0]):
        world.set_body_state(ball, position=position)
        np.testing.assert_array_equal(world.body_position(ball), [1, 2, 3])
        extra = world.add_body(name=f"extra{world.body_count}", position=position)
        np.testing.assert_array_equal(world.body_position(extra), [1, 2, 3])
    states = world.body_states()
    world.set_body_states(states.tolist())  # nested lists
    world.set_body_states(states.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(world.body_states()[:, :3], states[:, :3])
