# Debian packages: `cpack -G DEB` in the build directory makes
#
#   dtrace_<version>-1_<arch>.deb   component "dtrace": every install() rule
#                                   without a component (the binary,
#                                   libdtrace, the plugins, the D library, the
#                                   SDK) and the man page, under /usr
#   dtrace-dkms_<version>-1_all.deb component "dkms" (EXCLUDE_FROM_ALL: a
#                                   plain `cmake --install` leaves it out):
#                                   /usr/src/dtrace-<version>/ with the kernel
#                                   modules' sources as laid out in this tree
#                                   (kmod/, core/dif/, plugins/*/kernel/), and
#                                   a dkms.conf that builds them all with
#                                   kmod/build-modules.sh
#
# The installed dtrace finds what it needs relative to itself
# (<exe>/../lib/...: plugins, the D library; RPATH $ORIGIN/../lib), so the
# /usr layout works (and so does a package unpacked anywhere, as the test
# does); the kmod engine also looks in /lib/modules/<release>/updates/dkms,
# where DKMS installs the modules.
# Included at the end of the top-level CMakeLists.txt.

set(dkms_src src/dtrace-${PROJECT_VERSION})

# ---- the man page --------------------------------------------------------
# Compressed as Debian's policy wants it (gzip -n: reproducible).
find_program(DTRACE_GZIP gzip)
set(dtrace_man ${PROJECT_SOURCE_DIR}/docs/dtrace.1)
if(DTRACE_GZIP)
  set(dtrace_man_gz ${CMAKE_BINARY_DIR}/share/man/man1/dtrace.1.gz)
  add_custom_command(OUTPUT ${dtrace_man_gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/man/man1
    COMMAND ${DTRACE_GZIP} -9 -n -c ${dtrace_man} > ${dtrace_man_gz}
    DEPENDS ${dtrace_man} VERBATIM)
  add_custom_target(dtrace_man ALL DEPENDS ${dtrace_man_gz})
  install(FILES ${dtrace_man_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  install(FILES ${dtrace_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
  DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)

# ---- the DKMS sources ------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kmod/core ${PROJECT_SOURCE_DIR}/kmod/include
  DESTINATION ${dkms_src}/kmod COMPONENT dkms EXCLUDE_FROM_ALL)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/kmod/build-modules.sh
  DESTINATION ${dkms_src}/kmod COMPONENT dkms EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/kmod/COPYING
  DESTINATION ${dkms_src}/kmod COMPONENT dkms EXCLUDE_FROM_ALL)
# The DIF VM that dtrace.ko compiles in (kmod/core/Kbuild: vm_*.c).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/dif/
  DESTINATION ${dkms_src}/core/dif COMPONENT dkms EXCLUDE_FROM_ALL
  FILES_MATCHING PATTERN "*.c" PATTERN "*.h" PATTERN "*.def")
# Every provider's kernel half, and its module name for dkms.conf (the
# obj-m of its Kbuild): the core first, since the providers link to it.
set(DTRACE_DKMS_MODULES "BUILT_MODULE_NAME[0]=\"dtrace\"
BUILT_MODULE_LOCATION[0]=\"out/\${kernelver}\"
DEST_MODULE_LOCATION[0]=\"/updates/dkms\"")
file(GLOB dtrace_kernel_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/plugins/*/kernel)
list(SORT dtrace_kernel_dirs)
set(i 1)
foreach(k ${dtrace_kernel_dirs})
  if(NOT EXISTS ${k}/Kbuild)
    continue()
  endif()
  get_filename_component(p ${k} DIRECTORY)
  get_filename_component(p ${p} NAME)
  install(DIRECTORY ${k} DESTINATION ${dkms_src}/plugins/${p}
    COMPONENT dkms EXCLUDE_FROM_ALL)
  file(STRINGS ${k}/Kbuild objm REGEX "^obj-m[ \t:+]*=")
  string(REGEX MATCHALL "[A-Za-z0-9_]+\\.o" objs "${objm}")
  foreach(o ${objs})
    string(REGEX REPLACE "\\.o$" "" m ${o})
    string(APPEND DTRACE_DKMS_MODULES "
BUILT_MODULE_NAME[${i}]=\"${m}\"
BUILT_MODULE_LOCATION[${i}]=\"out/\${kernelver}\"
DEST_MODULE_LOCATION[${i}]=\"/updates/dkms\"")
    math(EXPR i "${i} + 1")
  endforeach()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/packaging/dkms.conf.in
  ${CMAKE_BINARY_DIR}/packaging/dkms.conf @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/dkms.conf
  DESTINATION ${dkms_src} COMPONENT dkms EXCLUDE_FROM_ALL)
foreach(s postinst prerm)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/packaging/dkms-${s}.in
    ${CMAKE_BINARY_DIR}/packaging/dkms/${s} @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
endforeach()

# ---- CPack ---------------------------------------------------------------
set(CPACK_PACKAGE_NAME dtrace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "DTrace for Linux developers <dtrace@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # RelWithDebInfo objects are large; the package needs no DWARF
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${CMAKE_INSTALL_DEFAULT_COMPONENT_NAME} dkms)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip) # fast to make; xz saves little here
string(TOUPPER ${CMAKE_INSTALL_DEFAULT_COMPONENT_NAME} main)
set(CPACK_DEBIAN_${main}_PACKAGE_NAME dtrace)
set(CPACK_DEBIAN_${main}_PACKAGE_SHLIBDEPS ON) # Depends: from the ELF files
set(CPACK_DEBIAN_${main}_PACKAGE_SUGGESTS "dtrace-dkms, prometheus")
# Each description's first line is its summary (CPack's default summary is
# not prepended); CPack wraps the rest.
set(CPACK_DEBIAN_${main}_DESCRIPTION "dynamic tracing: the D language and dtrace(1) for Linux
dtrace(1), libdtrace, the provider plugins (syscall, fbt, pid, proc, tcp, \
profile ...), the D library and the provider SDK. Programs run on the bpf \
engine on any kernel with BPF, or on the kmod engine with the modules of \
dtrace-dkms.")
set(CPACK_DEBIAN_DKMS_PACKAGE_NAME dtrace-dkms)
set(CPACK_DEBIAN_DKMS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_DKMS_PACKAGE_DEPENDS "dkms (>= 2.8), make")
set(CPACK_DEBIAN_DKMS_PACKAGE_SECTION kernel)
set(CPACK_DEBIAN_DKMS_DESCRIPTION "dynamic tracing: the kernel modules of dtrace(1), for DKMS
The sources of dtrace.ko and of every provider's kernel module, which DKMS \
builds for each installed kernel whose headers are installed, for dtrace's \
kmod engine.")
set(CPACK_DEBIAN_DKMS_PACKAGE_CONTROL_EXTRA
  ${CMAKE_BINARY_DIR}/packaging/dkms/postinst ${CMAKE_BINARY_DIR}/packaging/dkms/prerm)
include(CPack)
