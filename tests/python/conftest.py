"""Shared fixtures of the Python module's tests (run by ctest: tests/python/CMakeLists.txt sets the environment)."""
import os
import pathlib

import pytest

import pivot

SCENES = pathlib.Path(os.environ.get("PIVOT_SCENE_DIR", pathlib.Path(__file__).parents[2] / "scenes"))


@pytest.fixture(scope="module")
def engine():
    """One engine with the first-party plugins for a test file (engines are cheap but load ~10 libraries)."""
    return pivot.Engine()


@pytest.fixture
def scenes():
    return SCENES


@pytest.fixture
def friction_plugin():
    """The test-only friction plugin library of tests/plugins (models test.friction.box and test.friction.*)."""
    path = os.environ.get("PIVOT_TEST_FRICTION_PLUGIN")
    if not path:
        pytest.skip("PIVOT_TEST_FRICTION_PLUGIN is not set (ctest sets it)")
    return pathlib.Path(path)
