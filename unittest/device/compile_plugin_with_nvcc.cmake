# Compile each plugin source with nvcc as the C++ compiler (-x cu), as a KOKKOS CUDA build of
# LAMMPS compiles a plugin: the host-only parts (the friction fix's two-lane path) must stay
# out of nvcc's way and the kernels must compile for host and device. Run by CTest:
#   cmake -D NVCC=... -D ARCH=sm_90 -D INCLUDES=<list> -D DEFINES=<list> -D SOURCES=<list>
#         -D WORK=<dir> -P compile_plugin_with_nvcc.cmake
file(MAKE_DIRECTORY "${WORK}")
set(flags -x cu -std=c++17 -arch=${ARCH} -Werror all-warnings -Xcompiler -fPIC)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()
foreach(def IN LISTS DEFINES)
  list(APPEND flags "-D${def}")
endforeach()
set(failed "")
foreach(src IN LISTS SOURCES)
  get_filename_component(name "${src}" NAME_WE)
  execute_process(COMMAND "${NVCC}" ${flags} -c "${src}" -o "${WORK}/${name}.o"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "nvcc: ${name}.cpp compiled")
  else()
    message(STATUS "nvcc: ${name}.cpp FAILED\n${out}${err}")
    list(APPEND failed "${name}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "not compiled by nvcc: ${failed}")
endif()
