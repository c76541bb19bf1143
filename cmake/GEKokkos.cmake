# GEKokkos.cmake - the /kk styles (src/kokkos/) when the LAMMPS library has the KOKKOS package.
#
# Input (cache variables):
#   GE_KOKKOS    AUTO (default): build the /kk styles when the LAMMPS library has KOKKOS;
#                ON: require it; OFF: never.
#   Kokkos_DIR   where KokkosConfig.cmake is, when it is not found by itself: found by itself
#                are <LAMMPS prefix>/lib*/cmake/Kokkos (an installed LAMMPS) and
#                <LAMMPS build dir>/lib/kokkos (LAMMPS's bundled Kokkos, in its build dir).
# Needs from GELammps.cmake: GE_LAMMPS_LIBRARY_FILE, LAMMPS_SOURCE_DIR, LAMMPS_DIR.
#
# Results:
#   GE_HAVE_KOKKOS      ON when the /kk styles are built
#   ge_kokkos_headers   INTERFACE target: Kokkos's and LAMMPS's KOKKOS headers, LMP_KOKKOS, and
#                       Kokkos's compile options. It links no Kokkos library: Kokkos is inside
#                       liblammps, and a second copy in the plugin would be a second Kokkos.
#
# Kokkos decides the compiler: with its CUDA backend, configure this project with
# -D CMAKE_CXX_COMPILER=<Kokkos>/bin/nvcc_wrapper, as LAMMPS was.

set(GE_KOKKOS "AUTO" CACHE STRING "Build the /kk styles: AUTO (when LAMMPS has KOKKOS), ON or OFF")
set_property(CACHE GE_KOKKOS PROPERTY STRINGS AUTO ON OFF)
set(GE_HAVE_KOKKOS OFF)

# Does the library hold the KOKKOS package? It then defines LAMMPS_NS::KokkosLMP.
set(_ge_lammps_has_kokkos OFF)
if(NOT GE_KOKKOS STREQUAL "OFF" AND CMAKE_NM AND EXISTS "${GE_LAMMPS_LIBRARY_FILE}")
  execute_process(COMMAND "${CMAKE_NM}" -D -C --defined-only "${GE_LAMMPS_LIBRARY_FILE}"
                  OUTPUT_VARIABLE _ge_symbols ERROR_QUIET RESULT_VARIABLE _ge_rc)
  if(_ge_rc EQUAL 0 AND _ge_symbols MATCHES "LAMMPS_NS::KokkosLMP::KokkosLMP")
    set(_ge_lammps_has_kokkos ON)
  endif()
  unset(_ge_symbols)
endif()

if(GE_KOKKOS STREQUAL "OFF")
  message(STATUS "Kokkos styles: off (GE_KOKKOS=OFF)")
  return()
elseif(NOT _ge_lammps_has_kokkos)
  if(GE_KOKKOS STREQUAL "ON")
    message(FATAL_ERROR "GE_KOKKOS=ON, but ${GE_LAMMPS_LIBRARY_FILE} has no KOKKOS package: build "
                        "LAMMPS with -D PKG_KOKKOS=on (tools/setup-lammps.sh --kokkos DIR)")
  endif()
  message(STATUS "Kokkos styles: not built (the LAMMPS library has no KOKKOS package)")
  return()
endif()

# Kokkos 4.x; LAMMPS 4 Jul 2026's KOKKOS needs Kokkos >= 5.1 and C++20, which this project does
# not target yet
if(GE_LAMMPS_VERSION GREATER_EQUAL 20260000)
  set(_ge_msg "the /kk styles are for LAMMPS releases on Kokkos 4.x (up to 4 Feb 2025 here); "
              "LAMMPS ${GE_LAMMPS_VERSION_STRING}'s KOKKOS needs Kokkos >= 5.1 and C++20")
  if(GE_KOKKOS STREQUAL "ON")
    message(FATAL_ERROR "GE_KOKKOS=ON: ${_ge_msg}")
  endif()
  message(WARNING "Kokkos styles not built: ${_ge_msg}. The plugin is built without them.")
  return()
endif()

get_filename_component(_ge_lammps_lib_dir "${GE_LAMMPS_LIBRARY_FILE}" DIRECTORY)
find_package(Kokkos 4.5 CONFIG QUIET
             HINTS "${_ge_lammps_lib_dir}/cmake/Kokkos" "${LAMMPS_DIR}/lib/kokkos"
                   "${_ge_lammps_lib_dir}/lib/kokkos" "${LAMMPS_DIR}/../Kokkos")
if(NOT Kokkos_FOUND)
  message(FATAL_ERROR "The LAMMPS library ${GE_LAMMPS_LIBRARY_FILE} has the KOKKOS package, but no "
                      "KokkosConfig.cmake of its Kokkos was found: give -D Kokkos_DIR=<the LAMMPS "
                      "build dir>/lib/kokkos (bundled Kokkos) or <Kokkos prefix>/lib/cmake/Kokkos "
                      "(external Kokkos), or -D GE_KOKKOS=OFF to build without the /kk styles")
endif()
if(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} in ${Kokkos_DIR}: the /kk styles need Kokkos 4.x")
endif()
if(Kokkos_ENABLE_CUDA AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper|clang")
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} in ${Kokkos_DIR} has the CUDA backend: configure "
                      "this project with -D CMAKE_CXX_COMPILER=<Kokkos source>/bin/nvcc_wrapper "
                      "(as LAMMPS was), in a new build directory")
endif()

add_library(ge_kokkos_headers INTERFACE)
foreach(_t kokkoscore kokkoscontainers kokkosalgorithms kokkossimd)
  if(TARGET Kokkos::${_t})
    target_include_directories(ge_kokkos_headers SYSTEM INTERFACE
                               $<TARGET_PROPERTY:Kokkos::${_t},INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_options(ge_kokkos_headers INTERFACE
                           $<TARGET_PROPERTY:Kokkos::${_t},INTERFACE_COMPILE_OPTIONS>)
    target_compile_definitions(ge_kokkos_headers INTERFACE
                               $<TARGET_PROPERTY:Kokkos::${_t},INTERFACE_COMPILE_DEFINITIONS>)
  endif()
endforeach()
target_include_directories(ge_kokkos_headers INTERFACE "${LAMMPS_SOURCE_DIR}/src/KOKKOS")
target_compile_definitions(ge_kokkos_headers INTERFACE LMP_KOKKOS GE_HAVE_KOKKOS)
find_package(OpenMP COMPONENTS CXX)
if(OpenMP_CXX_FOUND)
  target_link_libraries(ge_kokkos_headers INTERFACE OpenMP::OpenMP_CXX)
endif()
set(GE_HAVE_KOKKOS ON)
message(STATUS "Kokkos styles: built (Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}, "
               "devices ${Kokkos_DEVICES})")
