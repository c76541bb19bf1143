# Compile each plugin source with another compiler or against other headers than the build's, as
# some LAMMPS builds compile the plugin. Run by CTest:
#   cmake -D COMPILER=... -D FLAGS=<list> -D INCLUDES=<list> -D DEFINES=<list> -D SOURCES=<list>
#         -D WHAT=<how, for the messages> [-D WORK=<dir>] -P compile_plugin_sources.cmake
# FLAGS come before the include directories (so that a directory in them is searched first).
# With WORK each source's object is written there; without it FLAGS say what is done (for
# example -fsyntax-only). Used for:
# - nvcc as the C++ compiler (-x cu), as a KOKKOS CUDA build of LAMMPS compiles a plugin: the
#   host-only parts (the friction fix's two-lane path) must stay out of nvcc's way and the
#   kernels must compile for host and device;
# - LAMMPS' serial STUBS mpi.h first (a LAMMPS built without MPI, BUILD_MPI off): the STUBS
#   declare their buffers `void *` where MPI has `const void *`, so a const send buffer that
#   every MPI accepts does not compile there.
if(WORK)
  file(MAKE_DIRECTORY "${WORK}")
endif()
set(flags ${FLAGS})
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()
foreach(def IN LISTS DEFINES)
  list(APPEND flags "-D${def}")
endforeach()
set(failed "")
foreach(src IN LISTS SOURCES)
  get_filename_component(name "${src}" NAME_WE)
  set(output "")
  if(WORK)
    set(output -c -o "${WORK}/${name}.o")
  endif()
  execute_process(COMMAND "${COMPILER}" ${flags} ${output} "${src}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "${name}.cpp compiled ${WHAT}")
  else()
    message(STATUS "${name}.cpp FAILED ${WHAT}:\n${out}${err}")
    list(APPEND failed "${name}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "not compiled ${WHAT}: ${failed}")
endif()
