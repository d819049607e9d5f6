# dtrace_add_plugin(<provider> SOURCES ... [LIBS ...])
# Builds the userspace half of a provider as dt_<provider>.so, the name
# the consumer's loader looks for. Used in-tree and, through the installed
# SDK (find_package(DtraceSDK)), by out-of-tree providers.
function(dtrace_add_plugin provider)
  cmake_parse_arguments(P "" "OUTPUT_DIRECTORY" "SOURCES;LIBS" ${ARGN})
  set(target dt_${provider})
  add_library(${target} MODULE ${P_SOURCES})
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME dt_${provider}
    CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden)
  if(TARGET dtrace_sdk)
    target_link_libraries(${target} PRIVATE dtrace_sdk)
  elseif(TARGET Dtrace::sdk)
    target_link_libraries(${target} PRIVATE Dtrace::sdk)
  endif()
  if(P_LIBS)
    target_link_libraries(${target} PRIVATE ${P_LIBS})
  endif()
  # Nothing may stay unresolved: a plugin that needs a symbol only the
  # consumer has would fail at dlopen on someone else's machine.
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  if(P_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${P_OUTPUT_DIRECTORY})
  elseif(DEFINED DTRACE_PLUGIN_BUILD_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${DTRACE_PLUGIN_BUILD_DIR})
  endif()
  if(DEFINED DTRACE_PLUGIN_SUBDIR)
    install(TARGETS ${target} LIBRARY DESTINATION ${DTRACE_PLUGIN_SUBDIR})
  endif()
endfunction()
