# GELammps.cmake - locate the LAMMPS library and source tree this project builds against.
#
# Inputs (cache variables, set them with -D on the cmake command line):
#   LAMMPS_SOURCE_DIR   Root of the LAMMPS source tree the library was built from (the directory that
#                       contains src/ and cmake/). Its src/ (and src/GRANULAR, src/PLUGIN) headers are
#                       needed: an installed LAMMPS ships only ~38 public headers, not enough for styles.
#   LAMMPS_DIR          Where the LAMMPS library is. Either
#                         - an install prefix (has lib/cmake/LAMMPS/LAMMPSConfig.cmake), or
#                         - the directory holding LAMMPSConfig.cmake + LAMMPS_Targets.cmake, or
#                         - a LAMMPS CMake build directory (has CMakeCache.txt and liblammps.so), or
#                         - any prefix with liblammps.so in it or in lib/ (the headers then come from
#                           LAMMPS_SOURCE_DIR; sizes are read from lib/pkgconfig/liblammps.pc).
#                       In the first two cases find_package(LAMMPS CONFIG) is used, which rewrites the
#                       LAMMPS_DIR cache entry to the directory of LAMMPSConfig.cmake (still valid input).
#   GE_LAMMPS_OMP_COMPAT  Optional: value of LAMMPS_OMP_COMPAT for plugin code (3 or 4), or OFF.
#                       Empty (default) = auto: set when liblammps was built with OpenMP.
#
# Results:
#   LAMMPS::lammps           imported shared library target (link executables to it, never plugins)
#   ge_lammps_headers        INTERFACE target with what code compiled *against LAMMPS headers* needs:
#                            include dirs src/ (this project), LAMMPS src/, src/GRANULAR, MPI headers,
#                            LAMMPS's own defines (LAMMPS_SMALLBIG, ...), LAMMPS_OMP_COMPAT, *_SKIP_MPICXX.
#                            It links no library, so it can be used by the plugin MODULE.
#   GE_LAMMPS_VERSION        numeric YYYYMMDD of the LAMMPS source tree (e.g. 20250204, 20260704)
#   GE_LAMMPS_VERSION_STRING the string from src/version.h (e.g. "4 Feb 2025")
#   GE_LAMMPS_INCLUDE_DIRS   LAMMPS source include dirs (src, src/GRANULAR)
#   GE_LAMMPS_LIBRARY_FILE   the LAMMPS shared library
#   GE_LAMMPS_HAS_MPI        OFF when LAMMPS was built without MPI (BUILD_MPI off, its STUBS library):
#                            MPI::MPI_CXX is then LAMMPS's STUBS headers, and runs are one process

set(LAMMPS_SOURCE_DIR "" CACHE PATH "Root of the LAMMPS source tree (contains src/ and cmake/)")
set(LAMMPS_DIR "" CACHE PATH "LAMMPS install prefix or LAMMPS build directory")
set(GE_LAMMPS_OMP_COMPAT "" CACHE STRING "LAMMPS_OMP_COMPAT for plugin code (3, 4 or OFF; empty = auto)")

# ---------------------------------------------------------------------------------------------
# source tree and version
if(NOT LAMMPS_SOURCE_DIR)
  message(FATAL_ERROR "Set -D LAMMPS_SOURCE_DIR=<root of the LAMMPS source tree (contains src/ and cmake/)>")
endif()
get_filename_component(LAMMPS_SOURCE_DIR "${LAMMPS_SOURCE_DIR}" ABSOLUTE)
if(NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/version.h" AND EXISTS "${LAMMPS_SOURCE_DIR}/version.h"
   AND EXISTS "${LAMMPS_SOURCE_DIR}/../cmake")
  # accept the src/ folder itself as well
  get_filename_component(LAMMPS_SOURCE_DIR "${LAMMPS_SOURCE_DIR}/.." ABSOLUTE)
endif()
if(NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/version.h" OR NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/pair.h")
  message(FATAL_ERROR "LAMMPS_SOURCE_DIR=${LAMMPS_SOURCE_DIR} is not a LAMMPS source tree (no src/version.h)")
endif()

file(STRINGS "${LAMMPS_SOURCE_DIR}/src/version.h" _ge_version_line REGEX "define[ \t]+LAMMPS_VERSION[ \t]")
if(NOT _ge_version_line MATCHES "\"([0-9]+) ([A-Za-z]+) ([0-9][0-9][0-9][0-9])")
  message(FATAL_ERROR "Cannot parse LAMMPS_VERSION in ${LAMMPS_SOURCE_DIR}/src/version.h: '${_ge_version_line}'")
endif()
set(_ge_day "${CMAKE_MATCH_1}")
string(SUBSTRING "${CMAKE_MATCH_2}" 0 3 _ge_month)
string(TOLOWER "${_ge_month}" _ge_month)
set(_ge_year "${CMAKE_MATCH_3}")
set(GE_LAMMPS_VERSION_STRING "${_ge_day} ${CMAKE_MATCH_2} ${_ge_year}")
set(_ge_months jan feb mar apr may jun jul aug sep oct nov dec)
list(FIND _ge_months "${_ge_month}" _ge_month_index)
if(_ge_month_index LESS 0)
  message(FATAL_ERROR "Unknown month '${CMAKE_MATCH_2}' in LAMMPS version '${GE_LAMMPS_VERSION_STRING}'")
endif()
math(EXPR GE_LAMMPS_VERSION "${_ge_year} * 10000 + (${_ge_month_index} + 1) * 100 + ${_ge_day}")
message(STATUS "LAMMPS source tree: ${LAMMPS_SOURCE_DIR} (version \"${GE_LAMMPS_VERSION_STRING}\" = ${GE_LAMMPS_VERSION})")

# ---------------------------------------------------------------------------------------------
# the library
if(NOT LAMMPS_DIR)
  message(FATAL_ERROR "Set -D LAMMPS_DIR=<LAMMPS install prefix or LAMMPS build directory>")
endif()
get_filename_component(_ge_lammps_dir "${LAMMPS_DIR}" ABSOLUTE)
include(GNUInstallDirs)
set(_ge_config_dir "")
foreach(_d "${_ge_lammps_dir}" "${_ge_lammps_dir}/${CMAKE_INSTALL_LIBDIR}/cmake/LAMMPS"
           "${_ge_lammps_dir}/lib/cmake/LAMMPS" "${_ge_lammps_dir}/lib64/cmake/LAMMPS")
  # a LAMMPS *build* dir has a LAMMPSConfig.cmake too, but no LAMMPS_Targets.cmake (only installed)
  if(EXISTS "${_d}/LAMMPSConfig.cmake" AND EXISTS "${_d}/LAMMPS_Targets.cmake")
    set(_ge_config_dir "${_d}")
    break()
  endif()
endforeach()

# ---------------------------------------------------------------------------------------------
# MPI first (LAMMPS's config re-finds it), without the obsolete C++ bindings, like LAMMPS does.
# A LAMMPS built with BUILD_MPI off holds its serial STUBS library: code compiled against its
# headers must see the STUBS mpi.h (MPI_Comm an int there), never an installed MPI's, and the MPI
# calls resolve in liblammps. MPI::MPI_CXX then stands for those headers alone.
set(GE_LAMMPS_HAS_MPI ON)
if(_ge_config_dir)
  file(STRINGS "${_ge_config_dir}/LAMMPS_Targets.cmake" _ge_stubs REGEX "LAMMPS::mpi_stubs")
  if(_ge_stubs)
    set(GE_LAMMPS_HAS_MPI OFF)
  endif()
elseif(EXISTS "${_ge_lammps_dir}/CMakeCache.txt")
  load_cache("${_ge_lammps_dir}" READ_WITH_PREFIX _ge_mpi_cache_ BUILD_MPI)
  if(DEFINED _ge_mpi_cache_BUILD_MPI AND NOT _ge_mpi_cache_BUILD_MPI)
    set(GE_LAMMPS_HAS_MPI OFF)
  endif()
endif()
if(GE_LAMMPS_HAS_MPI)
  set(MPI_CXX_SKIP_MPICXX TRUE)
  find_package(MPI REQUIRED COMPONENTS CXX)
else()
  if(NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/STUBS/mpi.h")
    message(FATAL_ERROR "LAMMPS in ${LAMMPS_DIR} was built without MPI, but ${LAMMPS_SOURCE_DIR}/src/STUBS/mpi.h is missing")
  endif()
  add_library(MPI::MPI_CXX INTERFACE IMPORTED)
  set_target_properties(MPI::MPI_CXX PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR}/src/STUBS")
  message(STATUS "LAMMPS without MPI: its STUBS headers (one process per run; no MPI tests)")
endif()

set(_ge_lammps_omp "")         # ON/OFF when known
if(_ge_config_dir)
  find_package(LAMMPS CONFIG REQUIRED NO_DEFAULT_PATH PATHS "${_ge_config_dir}")
  get_target_property(_ge_lammps_lib LAMMPS::lammps IMPORTED_LOCATION_RELEASE)
  if(NOT _ge_lammps_lib)
    get_target_property(_ge_configs LAMMPS::lammps IMPORTED_CONFIGURATIONS)
    list(GET _ge_configs 0 _ge_config)
    get_target_property(_ge_lammps_lib LAMMPS::lammps IMPORTED_LOCATION_${_ge_config})
  endif()
  # LAMMPSConfigVersion.cmake says 20250204 (4 Feb 2025) or 2026.7.4.0 (4 Jul 2026)
  set(_ge_lib_version "")
  if(LAMMPS_VERSION MATCHES "^([0-9][0-9][0-9][0-9])\\.([0-9]+)\\.([0-9]+)")
    math(EXPR _ge_lib_version "${CMAKE_MATCH_1} * 10000 + ${CMAKE_MATCH_2} * 100 + ${CMAKE_MATCH_3}")
  elseif(LAMMPS_VERSION MATCHES "^([0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9])")
    set(_ge_lib_version "${CMAKE_MATCH_1}")
  endif()
  if(_ge_lib_version AND NOT _ge_lib_version EQUAL GE_LAMMPS_VERSION)
    message(FATAL_ERROR "LAMMPS library in ${_ge_config_dir} is version ${LAMMPS_VERSION} but the source tree "
                        "${LAMMPS_SOURCE_DIR} is ${GE_LAMMPS_VERSION_STRING}: they must be the same LAMMPS.")
  endif()
  message(STATUS "LAMMPS library: ${_ge_lammps_lib} (CMake package in ${_ge_config_dir}, version ${LAMMPS_VERSION})")
else()
  # No CMake package: a LAMMPS build directory or a bare prefix.
  find_library(GE_LAMMPS_LIBRARY NAMES lammps
               PATHS "${_ge_lammps_dir}" "${_ge_lammps_dir}/${CMAKE_INSTALL_LIBDIR}" "${_ge_lammps_dir}/lib"
                     "${_ge_lammps_dir}/lib64"
               NO_DEFAULT_PATH NO_CACHE)
  if(NOT GE_LAMMPS_LIBRARY)
    message(FATAL_ERROR "LAMMPS_DIR=${LAMMPS_DIR}: found neither lib/cmake/LAMMPS/LAMMPSConfig.cmake nor liblammps")
  endif()
  set(_ge_lammps_lib "${GE_LAMMPS_LIBRARY}")
  set(_ge_lammps_defs "")
  if(EXISTS "${_ge_lammps_dir}/CMakeCache.txt")
    load_cache("${_ge_lammps_dir}" READ_WITH_PREFIX _ge_cache_ LAMMPS_SIZES BUILD_OMP)
    if(NOT _ge_cache_LAMMPS_SIZES)
      set(_ge_cache_LAMMPS_SIZES smallbig)
    endif()
    string(TOUPPER "LAMMPS_${_ge_cache_LAMMPS_SIZES}" _ge_lammps_defs)
    if(_ge_cache_BUILD_OMP)
      set(_ge_lammps_omp ON)
    else()
      set(_ge_lammps_omp OFF)
    endif()
  else()
    file(GLOB _ge_pc "${_ge_lammps_dir}/lib*/pkgconfig/liblammps*.pc" "${_ge_lammps_dir}/liblammps*.pc")
    if(_ge_pc)
      list(GET _ge_pc 0 _ge_pc)
      file(STRINGS "${_ge_pc}" _ge_cflags REGEX "^Cflags:")
      string(REGEX MATCHALL "-D[A-Za-z0-9_=]+" _ge_dflags "${_ge_cflags}")
      foreach(_f IN LISTS _ge_dflags)
        string(SUBSTRING "${_f}" 2 -1 _f)
        list(APPEND _ge_lammps_defs "${_f}")
      endforeach()
    endif()
    if(NOT _ge_lammps_defs MATCHES "LAMMPS_(SMALLBIG|BIGBIG|SMALLSMALL)")
      message(WARNING "Cannot tell the integer sizes of ${_ge_lammps_lib}; assuming LAMMPS_SMALLBIG (the default)")
      list(APPEND _ge_lammps_defs LAMMPS_SMALLBIG)
    endif()
  endif()
  add_library(LAMMPS::lammps SHARED IMPORTED)
  set_target_properties(LAMMPS::lammps PROPERTIES
    IMPORTED_LOCATION "${_ge_lammps_lib}"
    INTERFACE_COMPILE_DEFINITIONS "${_ge_lammps_defs}"
    INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR}/src"
    INTERFACE_LINK_LIBRARIES MPI::MPI_CXX)
  message(STATUS "LAMMPS library: ${_ge_lammps_lib} (no CMake package; defines ${_ge_lammps_defs})")
endif()

set(GE_LAMMPS_LIBRARY_FILE "${_ge_lammps_lib}")

# ---------------------------------------------------------------------------------------------
# OpenMP: LAMMPS compiles with -DLAMMPS_OMP_COMPAT=<3|4> when BUILD_OMP is on; mirror it for plugins.
if(_ge_lammps_omp STREQUAL "" AND CMAKE_OBJDUMP AND EXISTS "${_ge_lammps_lib}")
  execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${_ge_lammps_lib}" OUTPUT_VARIABLE _ge_objdump
                  ERROR_QUIET RESULT_VARIABLE _ge_rc)
  if(_ge_rc EQUAL 0)
    if(_ge_objdump MATCHES "NEEDED[ \t]+lib(gomp|omp|iomp5)\\.so")
      set(_ge_lammps_omp ON)
    else()
      set(_ge_lammps_omp OFF)
    endif()
  endif()
endif()
set(_ge_omp_defs "")
if(GE_LAMMPS_OMP_COMPAT)
  set(_ge_omp_defs "LAMMPS_OMP_COMPAT=${GE_LAMMPS_OMP_COMPAT}")
elseif(GE_LAMMPS_OMP_COMPAT STREQUAL "" AND _ge_lammps_omp)
  # same compiler test as LAMMPS's cmake/CMakeLists.txt
  if((CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 9.0)
     OR (CMAKE_CXX_COMPILER_ID MATCHES "^(Clang|AppleClang|CrayClang)$" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 10.0)
     OR (CMAKE_CXX_COMPILER_ID STREQUAL "Intel" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 19.0)
     OR CMAKE_CXX_COMPILER_ID MATCHES "^(PGI|NVHPC|IntelLLVM|XLClang)$")
    set(_ge_omp_defs "LAMMPS_OMP_COMPAT=4")
  else()
    set(_ge_omp_defs "LAMMPS_OMP_COMPAT=3")
  endif()
endif()

# ---------------------------------------------------------------------------------------------
# settings for code compiled against LAMMPS headers (plugin, lmp, deck tests)
set(GE_LAMMPS_INCLUDE_DIRS "${LAMMPS_SOURCE_DIR}/src" "${LAMMPS_SOURCE_DIR}/src/GRANULAR")
get_target_property(_ge_lammps_iface_defs LAMMPS::lammps INTERFACE_COMPILE_DEFINITIONS)
if(NOT _ge_lammps_iface_defs)
  set(_ge_lammps_iface_defs "")
endif()
get_target_property(_ge_mpi_incs MPI::MPI_CXX INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(_ge_mpi_defs MPI::MPI_CXX INTERFACE_COMPILE_DEFINITIONS)
get_target_property(_ge_mpi_opts MPI::MPI_CXX INTERFACE_COMPILE_OPTIONS)
foreach(_v _ge_mpi_incs _ge_mpi_defs _ge_mpi_opts)
  if(NOT ${_v})
    set(${_v} "")
  endif()
endforeach()

add_library(ge_lammps_headers INTERFACE)
target_compile_features(ge_lammps_headers INTERFACE cxx_std_17)
target_include_directories(ge_lammps_headers INTERFACE "${PROJECT_SOURCE_DIR}/src" ${GE_LAMMPS_INCLUDE_DIRS})
target_include_directories(ge_lammps_headers SYSTEM INTERFACE ${_ge_mpi_incs})
list(REMOVE_DUPLICATES _ge_mpi_defs)
target_compile_definitions(ge_lammps_headers INTERFACE ${_ge_lammps_iface_defs} ${_ge_omp_defs}
                           OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX ${_ge_mpi_defs})
target_compile_options(ge_lammps_headers INTERFACE ${_ge_mpi_opts})
list(JOIN _ge_lammps_iface_defs " " _ge_show_defs)
message(STATUS "LAMMPS defines for plugin code: ${_ge_show_defs} ${_ge_omp_defs}")
