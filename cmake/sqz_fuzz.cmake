# cmake/sqz_fuzz.cmake — SQZ_FUZZ=ON: one libFuzzer program per tests/fuzz/fuzz_<name>.c (target fuzz_<name>; the
# target sqz_fuzz builds them all, into BUILD/fuzz/), linked against copies of the library and of the CLI's sources
# compiled with -fsanitize=fuzzer-no-link,address,undefined. The normal library, CLI and tests build as without
# SQZ_FUZZ.
# Run them with tests/fuzz/run_all.sh BUILD_DIR SECONDS (seed corpora: tests/fuzz/corpus/<name>/).
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SQZ_FUZZ=ON needs clang (libFuzzer ships with clang's compiler-rt), but this build "
    "directory uses ${CMAKE_C_COMPILER_ID} (${CMAKE_C_COMPILER}). Configure a fresh build directory with clang:\n"
    "  CC=clang cmake -S . -B build-fuzz -DSQZ_FUZZ=ON && cmake --build build-fuzz --target sqz_fuzz")
endif()

set(SQZ_FUZZ_SAN -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer,address,undefined)
check_c_source_compiles([=[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return (int)(size && data[0] == 1) * 0; }
]=] SQZ_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT SQZ_HAVE_LIBFUZZER)
  unset(SQZ_HAVE_LIBFUZZER CACHE) # try again on the next configure
  message(FATAL_ERROR "SQZ_FUZZ=ON: ${CMAKE_C_COMPILER} cannot link a program with -fsanitize=fuzzer,address,undefined: "
    "clang's libFuzzer / sanitizer runtimes are missing (Debian 12: apt-get install libclang-rt-14-dev, or "
    "libclang-rt-dev for the default clang; Ubuntu: libclang-common-NN-dev). See CMakeFiles/CMakeError.log.")
endif()

# The library, instrumented: the same sources, definitions and include directories as sqz_objects.
add_library(sqz_fuzz_lib STATIC ${SQZ_SOURCES} ${SQZ_HDF5_SOURCES} ${SQZ_EMBED_C} ${SQZ_PTX_C})
target_compile_definitions(sqz_fuzz_lib PRIVATE $<TARGET_PROPERTY:sqz_objects,COMPILE_DEFINITIONS>)
target_include_directories(sqz_fuzz_lib PUBLIC ${PROJECT_SOURCE_DIR}/include
  PRIVATE $<TARGET_PROPERTY:sqz_objects,INCLUDE_DIRECTORIES>)
target_compile_options(sqz_fuzz_lib PRIVATE -fsanitize=fuzzer-no-link ${SQZ_FUZZ_SAN})
target_link_libraries(sqz_fuzz_lib PUBLIC ${SQZ_PRIVATE_LIBS})
if(SQZ_HAVE_HDF5) # the checkpoints of libsqz-hdf5, in the one instrumented library
  target_include_directories(sqz_fuzz_lib PRIVATE ${HDF5_INCLUDE_DIRS})
  target_link_libraries(sqz_fuzz_lib PUBLIC ${HDF5_C_LIBRARIES})
endif()
add_dependencies(sqz_fuzz_lib sqz_objects) # generates the embedded kernel sources

# The CLI without its main (tools/sqz.c), for harnesses that include a tools/cmd_*.c file to reach its static
# parser: the linker takes from this archive only what the harness lacks (never the included file's own object).
file(GLOB SQZ_FUZZ_TOOL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/*.c)
list(REMOVE_ITEM SQZ_FUZZ_TOOL_SOURCES ${PROJECT_SOURCE_DIR}/tools/sqz.c)
add_library(sqz_fuzz_cli STATIC ${SQZ_FUZZ_TOOL_SOURCES})
target_include_directories(sqz_fuzz_cli PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(sqz_fuzz_cli PRIVATE _POSIX_C_SOURCE=200809L)
target_compile_options(sqz_fuzz_cli PRIVATE -fsanitize=fuzzer-no-link ${SQZ_FUZZ_SAN})
target_link_libraries(sqz_fuzz_cli PUBLIC sqz_fuzz_lib)

add_custom_target(sqz_fuzz)
file(GLOB SQZ_FUZZ_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
if(NOT SQZ_HAVE_HDF5) # fuzz_h5 builds checkpoints with libhdf5; run_all.sh skips a corpus listed in fuzz/skipped
  list(FILTER SQZ_FUZZ_SOURCES EXCLUDE REGEX "/fuzz_h5\\.c$")
  file(WRITE ${PROJECT_BINARY_DIR}/fuzz/skipped "h5\n")
  message(STATUS "sqz: no HDF5: the harness fuzz_h5 is not built")
else()
  file(REMOVE ${PROJECT_BINARY_DIR}/fuzz/skipped)
endif()
foreach(src IN LISTS SQZ_FUZZ_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src
    ${PROJECT_SOURCE_DIR}/cl ${PROJECT_SOURCE_DIR}/tools ${PROJECT_SOURCE_DIR}/tests/fuzz)
  target_compile_definitions(${name} PRIVATE CL_TARGET_OPENCL_VERSION=120 _GNU_SOURCE)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer ${SQZ_FUZZ_SAN})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer ${SQZ_FUZZ_SAN})
  target_link_libraries(${name} PRIVATE sqz_fuzz_cli sqz_fuzz_lib)
  if(name STREQUAL "fuzz_h5")
    target_include_directories(${name} PRIVATE ${HDF5_INCLUDE_DIRS})
    target_link_libraries(${name} PRIVATE ${HDF5_C_LIBRARIES})
  endif()
  add_dependencies(sqz_fuzz ${name})
  # ctest in this build replays the seed corpus once (a regression test of every input committed there)
  string(REGEX REPLACE "^fuzz_" "" short ${name})
  add_test(NAME ${name} COMMAND ${name} -runs=0 -close_fd_mask=2 ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${short})
  set_tests_properties(${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
endforeach()
list(LENGTH SQZ_FUZZ_SOURCES SQZ_FUZZ_COUNT)
message(STATUS "sqz: ${SQZ_FUZZ_COUNT} libFuzzer harnesses (cmake --build . --target sqz_fuzz; tests/fuzz/run_all.sh)")
