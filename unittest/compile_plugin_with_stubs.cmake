# Compile each plugin source against LAMMPS' serial STUBS mpi.h (a LAMMPS built without MPI,
# BUILD_MPI off), syntax only: the STUBS declare their buffers `void *` where MPI has
# `const void *`, so a const send buffer that every MPI accepts does not compile there. Run by
# CTest:
#   cmake -D CXX=... -D STUBS=<LAMMPS src/STUBS> -D INCLUDES=<list> -D DEFINES=<list>
#         -D SOURCES=<list> -P compile_plugin_with_stubs.cmake
set(flags -std=c++17 -fsyntax-only "-I${STUBS}")
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()
foreach(def IN LISTS DEFINES)
  list(APPEND flags "-D${def}")
endforeach()
set(failed "")
foreach(src IN LISTS SOURCES)
  get_filename_component(name "${src}" NAME_WE)
  execute_process(COMMAND "${CXX}" ${flags} "${src}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(STATUS "${name}.cpp does not compile against the serial STUBS:\n${out}${err}")
    list(APPEND failed "${name}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "not compiled against the serial STUBS: ${failed}")
endif()
message(STATUS "every plugin source compiles against the serial STUBS")
