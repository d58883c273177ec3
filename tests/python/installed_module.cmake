# cmake -DPIVOT_BUILD_DIR=... -DPREFIX=... -DPACKAGE_DIR=... -DPYTHON=... -DSCENE=... -P installed_module.cmake
# Installs the build into PREFIX, then imports pivot from PREFIX/PACKAGE_DIR
# with nothing of the build tree on any path, and checks that the module,
# libpivot and the plugins it loads are the installed ones.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${PIVOT_BUILD_DIR}" --prefix "${PREFIX}"
  RESULT_VARIABLE failed OUTPUT_QUIET)
if(failed)
  message(FATAL_ERROR "cmake --install failed")
endif()
if(IS_ABSOLUTE "${PACKAGE_DIR}")
  set(site "${PACKAGE_DIR}")
else()
  set(site "${PREFIX}/${PACKAGE_DIR}")
endif()
set(check [=[
import os, sys
import pivot
prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(pivot.__file__).startswith(prefix), pivot.__file__
plugins = pivot.Engine().plugins()
assert plugins, "no plugin loaded"
for p in plugins:
    assert os.path.realpath(p["file"]).startswith(prefix), p["file"]
world = pivot.Engine().load_scene(sys.argv[2])
world.step(10)
print(f"pivot {pivot.__version__} from {os.path.dirname(pivot.__file__)}: {len(plugins)} plugins, "
      f"t = {world.time:.3f} s")
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} PIVOT_PLUGIN_PATH= LD_LIBRARY_PATH=
                        "${PYTHON}" -c "${check}" "${PREFIX}" "${SCENE}"
  RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "the installed module failed (PYTHONPATH=${site})")
endif()
