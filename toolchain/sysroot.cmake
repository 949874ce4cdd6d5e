# SPDX-License-Identifier: MIT
# Finds (building on first use) the per-architecture static sysroot made by build-sysroot.sh, and defines
# imported targets sotto::alsa, sotto::tinyxml2, sotto::systemd, sotto::sodium.
set(SOTTO_SYSROOT_ARCH ${CMAKE_SYSTEM_PROCESSOR})
if(SOTTO_SYSROOT_ARCH STREQUAL "amd64")
  set(SOTTO_SYSROOT_ARCH x86_64)
endif()
# Shared by every preset of one architecture: build/sysroot/<arch>.
set(SOTTO_SYSROOT_CACHE "${PROJECT_SOURCE_DIR}/build/sysroot" CACHE PATH "Where per-architecture static sysroots are cached")
set(SOTTO_SYSROOT "${SOTTO_SYSROOT_CACHE}/${SOTTO_SYSROOT_ARCH}")
execute_process(
  COMMAND bash "${PROJECT_SOURCE_DIR}/toolchain/build-sysroot.sh" ${SOTTO_SYSROOT_ARCH} "${SOTTO_SYSROOT}"
  RESULT_VARIABLE sysroot_rc)
if(NOT sysroot_rc EQUAL 0)
  message(FATAL_ERROR "The static sysroot for ${SOTTO_SYSROOT_ARCH} could not be built (see above).")
endif()

function(sotto_sysroot_lib name file)
  add_library(sotto::${name} STATIC IMPORTED GLOBAL)
  set_target_properties(sotto::${name} PROPERTIES
    IMPORTED_LOCATION "${SOTTO_SYSROOT}/lib/${file}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_SYSROOT}/include")
endfunction()
sotto_sysroot_lib(alsa libasound.a)
set_property(TARGET sotto::alsa PROPERTY INTERFACE_LINK_LIBRARIES dl pthread m rt)
sotto_sysroot_lib(tinyxml2 libtinyxml2.a)

# libsystemd.a uses libcap (Debian ships libcap.a, multiarch for arm64).
find_library(SOTTO_LIBCAP_A NAMES libcap.a REQUIRED)
sotto_sysroot_lib(systemd libsystemd.a)
set_property(TARGET sotto::systemd PROPERTY INTERFACE_LINK_LIBRARIES "${SOTTO_LIBCAP_A};pthread;rt")

# libsodium: Debian ships the static archive.
find_library(SOTTO_SODIUM_A NAMES libsodium.a REQUIRED)
find_path(SOTTO_SODIUM_INCLUDE sodium.h REQUIRED)
add_library(sotto::sodium STATIC IMPORTED GLOBAL)
set_target_properties(sotto::sodium PROPERTIES IMPORTED_LOCATION "${SOTTO_SODIUM_A}"
  INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_SODIUM_INCLUDE}" INTERFACE_LINK_LIBRARIES pthread)
