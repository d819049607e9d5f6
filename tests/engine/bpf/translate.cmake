# The bpf engine's translator (core/engine/bpf translate.hpp) on this
# kernel: translated programs loaded and run with bpf_prog_test_run. Label
# host: bpf() needs root; each test skips, saying why, where it is unusable.
set(dt_bpf_tr_dir ${PROJECT_SOURCE_DIR}/core/engine/bpf)
dtrace_add_gtest(bpf_translate_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/translate_records_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/translate_aggs_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/translate_vectors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/translate_ctx_test.cc
    ${dt_bpf_tr_dir}/maps.cc
  LIBS dtrace_core dif_vectors PkgConfig::LIBBPF LABELS host)
target_include_directories(bpf_translate_tests PRIVATE ${dt_bpf_tr_dir}
  ${PROJECT_SOURCE_DIR}/tests/dif ${PROJECT_SOURCE_DIR}/core/dif
  ${PROJECT_SOURCE_DIR}/core/engine/user)

# The linker's test library (translate_linklib.bpf.c), built with clang
# -target bpf and embedded like the real one.
find_program(DT_TR_CLANG NAMES clang-14 clang)
if(DT_TR_CLANG)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
    OUTPUT_VARIABLE dt_tr_multiarch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(dt_tr_obj ${CMAKE_CURRENT_BINARY_DIR}/translate_linklib.bpf.o)
  set(dt_tr_cc ${CMAKE_CURRENT_BINARY_DIR}/translate_linklib.cc)
  add_custom_command(OUTPUT ${dt_tr_obj}
    COMMAND ${DT_TR_CLANG} -target bpf -O2 -g0 -Wall -I/usr/include/${dt_tr_multiarch}
      -c ${CMAKE_CURRENT_LIST_DIR}/translate_linklib.bpf.c -o ${dt_tr_obj}
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/translate_linklib.bpf.c
      ${PROJECT_SOURCE_DIR}/core/engine/bpf/abi/dt_bpf_abi.h
    VERBATIM)
  add_custom_command(OUTPUT ${dt_tr_cc}
    COMMAND ${CMAKE_COMMAND} -DIN=${dt_tr_obj} -DOUT=${dt_tr_cc} -DNAME=dt_test_linklib
      -P ${PROJECT_SOURCE_DIR}/core/engine/bpf/embed.cmake
    DEPENDS ${dt_tr_obj} ${PROJECT_SOURCE_DIR}/core/engine/bpf/embed.cmake)
  target_sources(bpf_translate_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/translate_link_test.cc
    ${dt_tr_cc})
endif()
