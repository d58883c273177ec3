"""pivot.Engine: plugins, worlds from files, JSON and code, errors, lifetime."""
import gc
import json

import pytest

import pivot


def test_error_is_a_runtime_error():
    assert issubclass(pivot.Error, RuntimeError)
    assert pivot.Error.__module__ == "pivot"


def test_version_is_the_library_version():
    assert pivot.__version__ == pivot.version()
    assert len(pivot.__version__.split(".")) == 3


def test_first_party_plugins_are_found_next_to_libpivot(engine):
    plugins = engine.plugins()
    ids = {p["id"] for p in plugins}
    for expected in ("pivot.element.rigid_body", "pivot.friction.box", "pivot.joint.revolute",
                     "pivot.solver.dantzig", "pivot.solver.pgs", "pivot.solver.lemke"):
        assert expected in ids
    lemke = next(p for p in plugins if p["id"] == "pivot.solver.lemke")
    assert lemke["kind"] == "solver"
    assert lemke["file"].endswith(".so")
    assert lemke["details"]["id"] == "pivot.solver.lemke"
    assert engine.find_plugin("solver", "lemke")["id"] == "pivot.solver.lemke"
    with pytest.raises(pivot.Error):
        engine.find_plugin("solver", "no_such_solver")
    with pytest.raises(ValueError):
        engine.find_plugin("gearbox", "lemke")


def test_an_empty_engine_has_no_plugin():
    assert pivot.Engine(empty=True).plugins() == []


def test_loading_a_missing_plugin_file_raises_with_its_name(engine, tmp_path):
    with pytest.raises(pivot.Error, match="no_such_plugin.so"):
        engine.load_plugins(tmp_path / "no_such_plugin.so")


def test_a_scene_file(engine, scenes):
    world = engine.load_scene(scenes / "crane.json")  # a pathlib.Path as well as a str
    assert world.body_names == ["turret", "hook", "load"]
    assert world.joint_names == ["slew", "hoist"]
    assert world.timestep == pytest.approx(1 / 60, rel=1e-15)
    assert world.solver == "pivot.solver.dantzig"


def test_a_missing_or_bad_scene_file_names_the_file(engine, tmp_path):
    with pytest.raises(pivot.Error, match="missing_scene.json"):
        engine.load_scene(tmp_path / "missing_scene.json")
    bad = tmp_path / "negative_mass.json"
    bad.write_text(json.dumps({"format": "pivot-scene/1", "bodies": [{"name": "b", "mass": -1}]}))
    with pytest.raises(pivot.Error, match="negative_mass.json") as error:
        engine.load_scene(bad)
    assert "mass" in str(error.value)
    assert "\n" not in str(error.value)  # the engine's one-line message


def test_a_scene_as_json_text_or_as_a_dict(engine, scenes):
    text = (scenes / "crane.json").read_text()
    from_text = engine.scene_from_json(text)
    from_dict = engine.scene_from_json(json.loads(text))
    from_text.step(30)
    from_dict.step(30)
    assert (from_text.body_states() == from_dict.body_states()).all()
    with pytest.raises(pivot.Error):
        engine.scene_from_json("{ not json")
    with pytest.raises(TypeError):
        engine.scene_from_json({"format": "pivot-scene/1", "bodies": [{"mass": object()}]})


def test_a_world_in_code_takes_the_settings_as_keywords(engine):
    world = engine.create_world(timestep=0.005, gravity=(0, 0, -1.62), solver="pgs", solver_options={})
    assert world.timestep == 0.005
    assert world.solver == "pivot.solver.pgs"
    with pytest.raises(TypeError, match="timestpe"):
        engine.create_world(timestpe=0.01)
    with pytest.raises(TypeError, match="gravity"):
        engine.create_world(gravity="down")
    with pytest.raises(ValueError, match="gravity"):
        engine.create_world(gravity=(0, -9.81))
    with pytest.raises(pivot.Error):
        engine.create_world(timestep=-1.0)


def test_a_world_keeps_its_engine_alive(scenes):
    world = pivot.Engine().load_scene(scenes / "crane.json")  # the Engine object is gone at once
    gc.collect()
    world.step(10)
    assert world.engine.plugins()
    engine = world.engine
    del world
    gc.collect()
    assert engine.plugins()
