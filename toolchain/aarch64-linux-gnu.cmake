# SPDX-License-Identifier: MIT
# Cross toolchain: Debian's g++-aarch64-linux-gnu, arm64 multiarch libraries, tests under qemu-aarch64-static.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Debian's cross gcc searches /usr/lib/aarch64-linux-gnu itself; keep CMake from picking host libraries.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
find_program(SOTTO_QEMU_AARCH64 qemu-aarch64-static)
if(SOTTO_QEMU_AARCH64)
  # -L: the dynamic loader and shared libraries of the multiarch install, for non-static test binaries.
  set(CMAKE_CROSSCOMPILING_EMULATOR "${SOTTO_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu" CACHE STRING "")
endif()
