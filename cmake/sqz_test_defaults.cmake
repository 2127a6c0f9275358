# cmake/sqz_test_defaults.cmake — defaults for every ctest entry of a directory, so that `ctest -j$(nproc)` passes on
# a small machine that also runs other work. Included by tests/CMakeLists.txt and examples/CMakeLists.txt (a
# subdirectory of tests/ calls `cmake_language(DEFER CALL sqz_test_defaults)` itself); when the directory has been
# read, every test added in it, wherever in the file, gets:
#  - ENVIRONMENT: SQZ_TEST_ENV first, then the test's own entries (which win on the same variable). PoCL's pthread
#    device (PoCL 3.x: POCL_MAX_PTHREAD_COUNT; PoCL 4+: POCL_CPU_MAX_CU_COUNT) and OpenMP start one thread per core
#    by default: two tests at once on 2 cores then ran 4 busy threads, and a 26 s test went past 300 s. With
#    SQZ_TEST_THREADS (1) per test process and one test per core (ctest -jN), the suite keeps N threads busy (the rule
#    of docs/ARCHITECTURE.md, "The test suite on a small machine"). Also Check's default timeout and the kernel cache shared by all tests, off unless
#    SQZ_TEST_DISK_CACHE=ON (SQZ_NO_CACHE=1): storing a program's binary makes PoCL compile every kernel once more
#    for a generic group size (336 of 878 kernel compiles of a cold run), while PoCL's own cache (POCL_CACHE_DIR,
#    keyed by source and options) already spares the tests a second build. test_cache and test_runtime turn the
#    disk cache on themselves.
#  - for the tests whose program or full names match a regex of SQZ_TEST_LONG (the longest with a cold kernel cache):
#    COST 1000, 999, ... in the list's order, so that ctest -jN starts them first and in that order (until it has
#    measured them) instead of ending the run on one of them, and a TIMEOUT of at least SQZ_TEST_LONG_TIMEOUT.
#  - RESOURCE_LOCK kernels-NAME for the tests matching an entry "NAME=REGEX" of SQZ_TEST_KERNEL_GROUPS (by program
#    or by full name): tests that compile the same kernels (most of their time with a cold cache) run one after the
#    other, so the later one finds them in the cache instead of compiling them at the same time.
#  - TIMEOUT SQZ_TEST_TIMEOUT where the test sets none.
# A test entry "PROGRAM.CASE" (one Check case of a program) matches as PROGRAM.
set(SQZ_TEST_THREADS 1 CACHE STRING "PoCL pthread workers and OpenMP threads per test process")
set(SQZ_TEST_TIMEOUT 300 CACHE STRING "ctest timeout in seconds of a test that sets none")
set(SQZ_TEST_LONG_TIMEOUT 1200 CACHE STRING "smallest ctest timeout in seconds of the tests of SQZ_TEST_LONG")
option(SQZ_TEST_DISK_CACHE "Tests store and reuse kernel binaries in build/tests/kernel-cache" OFF)
set(SQZ_TEST_ENV "POCL_MAX_PTHREAD_COUNT=${SQZ_TEST_THREADS}" "POCL_CPU_MAX_CU_COUNT=${SQZ_TEST_THREADS}"
  "OMP_NUM_THREADS=${SQZ_TEST_THREADS}" "OMP_WAIT_POLICY=passive" "CK_DEFAULT_TIMEOUT=600"
  "SQZ_CACHE_DIR=${PROJECT_BINARY_DIR}/tests/kernel-cache")
if(NOT SQZ_TEST_DISK_CACHE)
  list(APPEND SQZ_TEST_ENV "SQZ_NO_CACHE=1")
endif()

function(sqz_test_defaults)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    string(REGEX REPLACE "\\..*" "" program "${t}")
    set(env ${SQZ_TEST_ENV})
    get_test_property(${t} ENVIRONMENT own)
    if(own)
      list(APPEND env ${own})
    endif()
    set_tests_properties(${t} PROPERTIES ENVIRONMENT "${env}")
    get_test_property(${t} TIMEOUT timeout)
    if(NOT timeout)
      set(timeout ${SQZ_TEST_TIMEOUT})
    endif()
    set(cost 1000)
    foreach(re IN LISTS SQZ_TEST_LONG)
      if(program MATCHES "^(${re})$" OR t MATCHES "^(${re})$")
        set_tests_properties(${t} PROPERTIES COST ${cost})
        if(timeout LESS SQZ_TEST_LONG_TIMEOUT)
          set(timeout ${SQZ_TEST_LONG_TIMEOUT})
        endif()
      endif()
      math(EXPR cost "${cost} - 1")
    endforeach()
    set_tests_properties(${t} PROPERTIES TIMEOUT ${timeout})
    foreach(group IN LISTS SQZ_TEST_KERNEL_GROUPS)
      if(group MATCHES "^([^=]+)=(.+)$")
        set(lock "kernels-${CMAKE_MATCH_1}")
        if(program MATCHES "^(${CMAKE_MATCH_2})$" OR t MATCHES "^(${CMAKE_MATCH_2})$")
          set_property(TEST ${t} APPEND PROPERTY RESOURCE_LOCK ${lock})
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER CALL sqz_test_defaults)
