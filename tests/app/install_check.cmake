# SPDX-License-Identifier: MIT
# ctest script: `cmake --install` with DESTDIR lays the binaries and the overlay into a staging rootfs.
# -DBUILD_DIR=... -DSTAGE=...
file(REMOVE_RECURSE "${STAGE}")
set(ENV{DESTDIR} "${STAGE}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(f usr/bin/sottod usr/bin/sotto etc/sotto/sotto.xml usr/lib/systemd/system/sottod.service
          usr/lib/sysusers.d/sotto.conf usr/lib/tmpfiles.d/sotto.conf usr/share/alsa/alsa.conf etc/asound.conf)
  if(NOT EXISTS "${STAGE}/${f}")
    message(FATAL_ERROR "staging rootfs lacks /${f}")
  endif()
  if(IS_SYMLINK "${STAGE}/${f}")
    message(FATAL_ERROR "/${f} is a symlink into the source tree")
  endif()
endforeach()
file(REMOVE_RECURSE "${STAGE}")
message(STATUS "staging rootfs complete")
