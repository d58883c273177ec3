# FindSuiteSparse
# ---------------
# Debian 12 ships SuiteSparse 5.x headers and libraries without a CMake
# package configuration, so this module finds them.
#
#   find_package(SuiteSparse REQUIRED COMPONENTS CHOLMOD KLU)
#
# Imported targets: SuiteSparse::<Component> for each requested component
# (CHOLMOD, KLU, AMD, CAMD, COLAMD, CCOLAMD, BTF, UMFPACK, SPQR), each
# bringing its dependencies, plus SuiteSparse::Config.
# Result variables: SuiteSparse_FOUND, SuiteSparse_<C>_FOUND,
# SuiteSparse_INCLUDE_DIR, SuiteSparse_VERSION.

include(FindPackageHandleStandardArgs)

find_path(SuiteSparse_INCLUDE_DIR NAMES SuiteSparse_config.h
  PATH_SUFFIXES suitesparse include/suitesparse)

find_library(SuiteSparse_Config_LIBRARY NAMES suitesparseconfig)

if(SuiteSparse_INCLUDE_DIR AND EXISTS "${SuiteSparse_INCLUDE_DIR}/SuiteSparse_config.h")
  file(STRINGS "${SuiteSparse_INCLUDE_DIR}/SuiteSparse_config.h" _ss_version_lines
       REGEX "^#define SUITESPARSE_(MAIN|SUB|SUBSUB)_VERSION[ \t]+[0-9]+")
  foreach(_part MAIN SUB SUBSUB)
    string(REGEX REPLACE ".*#define SUITESPARSE_${_part}_VERSION[ \t]+([0-9]+).*" "\\1"
           _ss_${_part} "${_ss_version_lines}")
  endforeach()
  set(SuiteSparse_VERSION "${_ss_MAIN}.${_ss_SUB}.${_ss_SUBSUB}")
endif()

# component -> header, library, dependencies (components)
set(_ss_CHOLMOD_header cholmod.h)
set(_ss_CHOLMOD_deps AMD CAMD COLAMD CCOLAMD)
set(_ss_KLU_header klu.h)
set(_ss_KLU_deps AMD COLAMD BTF)
set(_ss_UMFPACK_header umfpack.h)
set(_ss_UMFPACK_deps CHOLMOD AMD)
set(_ss_SPQR_header SuiteSparseQR.hpp)
set(_ss_SPQR_deps CHOLMOD)
set(_ss_AMD_header amd.h)
set(_ss_CAMD_header camd.h)
set(_ss_COLAMD_header colamd.h)
set(_ss_CCOLAMD_header ccolamd.h)
set(_ss_BTF_header btf.h)

# Close the requested set under dependencies.
set(_ss_components ${SuiteSparse_FIND_COMPONENTS})
set(_ss_todo ${_ss_components})
while(_ss_todo)
  list(POP_FRONT _ss_todo _c)
  foreach(_d IN LISTS _ss_${_c}_deps)
    if(NOT _d IN_LIST _ss_components)
      list(APPEND _ss_components ${_d})
      list(APPEND _ss_todo ${_d})
    endif()
  endforeach()
endwhile()

foreach(_c IN LISTS _ss_components)
  string(TOLOWER ${_c} _lib)
  if(NOT DEFINED _ss_${_c}_header)
    message(FATAL_ERROR "FindSuiteSparse: unknown component ${_c}")
  endif()
  find_library(SuiteSparse_${_c}_LIBRARY NAMES ${_lib})
  if(SuiteSparse_${_c}_LIBRARY AND SuiteSparse_INCLUDE_DIR
     AND EXISTS "${SuiteSparse_INCLUDE_DIR}/${_ss_${_c}_header}")
    set(SuiteSparse_${_c}_FOUND TRUE)
  else()
    set(SuiteSparse_${_c}_FOUND FALSE)
  endif()
  mark_as_advanced(SuiteSparse_${_c}_LIBRARY)
endforeach()

find_package_handle_standard_args(SuiteSparse
  REQUIRED_VARS SuiteSparse_INCLUDE_DIR SuiteSparse_Config_LIBRARY
  VERSION_VAR SuiteSparse_VERSION
  HANDLE_COMPONENTS)
mark_as_advanced(SuiteSparse_INCLUDE_DIR SuiteSparse_Config_LIBRARY)

if(SuiteSparse_FOUND)
  if(NOT TARGET SuiteSparse::Config)
    add_library(SuiteSparse::Config UNKNOWN IMPORTED)
    set_target_properties(SuiteSparse::Config PROPERTIES
      IMPORTED_LOCATION "${SuiteSparse_Config_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}")
  endif()
  foreach(_c IN LISTS _ss_components)
    if(SuiteSparse_${_c}_FOUND AND NOT TARGET SuiteSparse::${_c})
      add_library(SuiteSparse::${_c} UNKNOWN IMPORTED)
      set(_links SuiteSparse::Config)
      foreach(_d IN LISTS _ss_${_c}_deps)
        list(APPEND _links SuiteSparse::${_d})
      endforeach()
      set_target_properties(SuiteSparse::${_c} PROPERTIES
        IMPORTED_LOCATION "${SuiteSparse_${_c}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "${_links}")
    endif()
  endforeach()
endif()
