# pivot_add_plugin(<target> SOURCES <files...> [LIBRARIES <libs...>] [OUTPUT_DIR <dir>] [NO_INSTALL])
#
# Builds one plugin library exactly as a third-party plugin is built: a
# MODULE library that sees only the public SDK headers (target pivot::sdk),
# exports only the entry symbol, and is named after the target (no "lib").
# First-party plugins go to the plugin folder of the build tree and are
# installed; test plugins pass OUTPUT_DIR and NO_INSTALL. The same file is
# installed with the CMake package, for plugins built outside this tree
# (then the output folder defaults to the current binary folder, and the
# plugin is installed only where the project says).
set(PIVOT_PLUGIN_EXPORTS_MAP "${CMAKE_CURRENT_LIST_DIR}/plugin_exports.map")

function(pivot_add_plugin target)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE pivot::sdk ${ARG_LIBRARIES})
  if(COMMAND pivot_warnings)
    pivot_warnings(${target})
  endif()
  if(NOT ARG_OUTPUT_DIR)
    if(DEFINED PIVOT_PLUGIN_OUTPUT_DIR)
      set(ARG_OUTPUT_DIR "${PIVOT_PLUGIN_OUTPUT_DIR}")
    else()
      set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden)
  if((CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" OR CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
     AND NOT APPLE AND NOT PIVOT_SANITIZE)
    # A plugin must not depend on symbols of the host: unresolved symbols are
    # link errors, not load-time surprises. (Not with sanitizers: their
    # runtime is provided by the executable.)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  if((CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" OR CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
     AND NOT APPLE AND NOT WIN32)
    # Exactly one exported symbol, whatever the plugin's templates instantiate.
    target_link_options(${target} PRIVATE "LINKER:--version-script=${PIVOT_PLUGIN_EXPORTS_MAP}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${PIVOT_PLUGIN_EXPORTS_MAP}")
  endif()
  if(NOT ARG_NO_INSTALL AND DEFINED PIVOT_PLUGIN_INSTALL_DIR AND PROJECT_NAME STREQUAL "pivot")
    install(TARGETS ${target} LIBRARY DESTINATION "${PIVOT_PLUGIN_INSTALL_DIR}")
    set_property(GLOBAL APPEND PROPERTY PIVOT_FIRST_PARTY_PLUGINS ${target})
  endif()
endfunction()
