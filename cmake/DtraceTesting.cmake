# dtrace_add_gtest(<name> SOURCES ... [LIBS ...] [LABELS ...] [LOCK <resource>])
# A GoogleTest binary registered with ctest, one ctest test per TEST().
# LOCK: its tests never run beside another holding the same resource
# (ctest RESOURCE_LOCK), for tests whose effects reach each other.
# Tests find the built CLI through dt::test::dtrace_bin() (support/).
include(GoogleTest)
find_package(GTest REQUIRED)
function(dtrace_add_gtest name)
  cmake_parse_arguments(T "" "LOCK" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE dtrace_test_support GTest::gtest_main ${T_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  set(props LABELS "${T_LABELS}")
  if(T_LOCK)
    list(APPEND props RESOURCE_LOCK ${T_LOCK})
  endif()
  gtest_discover_tests(${name} PROPERTIES ${props}
    DISCOVERY_TIMEOUT 60)
endfunction()
