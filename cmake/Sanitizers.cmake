# Sanitizers.cmake: instrumented configurations of the whole build.
#
# COLLECTIVIZE_SANITIZE=address,undefined (scripts/run test-asan) or =thread
# (scripts/run test-tsan): every library and program, tests included, is
# built with these sanitizers; undefined behaviour stops the program like
# a memory error does. The sanitizer runtime is linked as a shared library
# (-shared-libsan; ThreadSanitizer's statically, see below), so that
# libcollectivize_trace.so preloaded into a program and the compiler
# wrappers' programs share the one runtime. TSan needs address space
# randomization off on recent kernels: scripts/run test-tsan runs ctest
# under `setarch -R`.
#
# COLLECTIVIZE_FUZZ=ON builds the fuzz targets (tests/fuzz, libFuzzer):
# everything is instrumented for coverage, with ASan and UBSan.
set(COLLECTIVIZE_SANITIZE "" CACHE STRING
    "Build everything with these sanitizers (address,undefined or thread)")
option(COLLECTIVIZE_FUZZ "Build the fuzz targets in tests/fuzz (clang, libFuzzer)" OFF)

if(COLLECTIVIZE_FUZZ OR COLLECTIVIZE_SANITIZE)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "COLLECTIVIZE_FUZZ and COLLECTIVIZE_SANITIZE need clang (CC=clang-14 CXX=clang++-14)")
  endif()
endif()

if(COLLECTIVIZE_FUZZ)
  set(CZ_SANITIZERS address,undefined)
  add_compile_options(-fsanitize=fuzzer-no-link)
elseif(COLLECTIVIZE_SANITIZE)
  set(CZ_SANITIZERS ${COLLECTIVIZE_SANITIZE})
endif()

if(CZ_SANITIZERS)
  add_compile_options(-fsanitize=${CZ_SANITIZERS} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${CZ_SANITIZERS})
  # ThreadSanitizer's shared runtime starts after libstdc++'s constructors
  # under mpirun (a crash in its __cxa_atexit): TSan programs link it
  # statically, and the tracer they link resolves against it.
  if(NOT COLLECTIVIZE_FUZZ AND NOT CZ_SANITIZERS STREQUAL "thread")
    # The shared runtime lives in clang's own directory: programs find it
    # there (rpath), mpirun-launched ranks included.
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-runtime-dir
                    OUTPUT_VARIABLE cz_sanitizer_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    add_link_options(-shared-libsan -Wl,-rpath,${cz_sanitizer_dir})
  endif()
  message(STATUS "Sanitizers: ${CZ_SANITIZERS}")
endif()

# Sanitized programs run several times slower (under ASan and UBSan here
# mpi_np8 took 275 s against 44 s, and mpi_np16 went past its 300 s): the
# tests of the directory that calls this get CZ_TIMEOUT_SCALE times their
# timeout in a COLLECTIVIZE_SANITIZE build, so a slow test is not reported
# as a hang. Test scripts that bound their own commands get it in their
# environment (tests/mpi/trace).
set(CZ_TIMEOUT_SCALE 1)
if(COLLECTIVIZE_SANITIZE)
  set(CZ_TIMEOUT_SCALE 4)
endif()
#
# Leaks: the tests labelled mpi run MPI processes, where Open MPI keeps
# memory until exit by design, some of it allocated by components it has
# unloaded by then (no module name a suppression could match): their
# processes get detect_leaks=0 appended to ASAN_OPTIONS (the caller's other
# options, such as scripts/run's log_path, stay). Every other sanitized
# test, and every tool the lit tests run, is checked for leaks
# (tests/sanitizers/lsan.supp; the lit tests' ranks are exempted by their
# mpirun wrapper, tests/lit/lit.cfg.py).
function(cz_scale_timeouts_when_sanitized)
  if(CZ_TIMEOUT_SCALE EQUAL 1)
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} TIMEOUT timeout)
    if(timeout)
      math(EXPR timeout "${timeout} * ${CZ_TIMEOUT_SCALE}")
      set_tests_properties(${t} PROPERTIES TIMEOUT ${timeout})
    endif()
    get_test_property(${t} LABELS labels)
    if("mpi" IN_LIST labels)
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT_MODIFICATION
                   "ASAN_OPTIONS=string_append::detect_leaks=0")
    endif()
  endforeach()
endfunction()
