# SPDX-License-Identifier: MIT
# Finds (building on first use) the per-architecture static sysroot made by build-sysroot.sh, and defines
# imported targets sotto::alsa, sotto::tinyxml2, sotto::systemd, sotto::sodium, sotto::speexdsp,
# sotto::sphinxbase, sotto::pocketsphinx, sotto::curl.
set(SOTTO_SYSROOT_ARCH ${CMAKE_SYSTEM_PROCESSOR})
if(SOTTO_SYSROOT_ARCH STREQUAL "amd64")
  set(SOTTO_SYSROOT_ARCH x86_64)
endif()
# Built per clone in build/sysroot/<arch> (shared by every preset of one architecture) unless the machine-wide cache
# (toolchain/sysroot.sh: /var/cache/sotto-sysroot/<arch>-<key>) holds a verified copy for the same script, sources
# and compiler. How it was obtained and how long it took land in the build folder for toolchain/test.sh's report.
set(SOTTO_SYSROOT_CACHE "${PROJECT_SOURCE_DIR}/build/sysroot" CACHE PATH "Where this clone builds its sysroots")
string(TIMESTAMP sysroot_start "%s" UTC)
set(sysroot_result "${CMAKE_BINARY_DIR}/sysroot-result.txt")
execute_process(
  COMMAND bash "${PROJECT_SOURCE_DIR}/toolchain/sysroot.sh" ${SOTTO_SYSROOT_ARCH}
          "${SOTTO_SYSROOT_CACHE}/${SOTTO_SYSROOT_ARCH}" "${sysroot_result}"
  RESULT_VARIABLE sysroot_rc)
if(NOT sysroot_rc EQUAL 0)
  message(FATAL_ERROR "The static sysroot for ${SOTTO_SYSROOT_ARCH} could not be built (see above).")
endif()
string(TIMESTAMP sysroot_end "%s" UTC)
file(STRINGS "${sysroot_result}" sysroot_lines)
list(GET sysroot_lines 0 SOTTO_SYSROOT)
list(GET sysroot_lines 1 sysroot_how)
math(EXPR sysroot_seconds "${sysroot_end} - ${sysroot_start}")
file(WRITE "${CMAKE_BINARY_DIR}/sysroot-time.txt" "${sysroot_seconds} ${sysroot_how}\n")
message(STATUS "Sysroot ${SOTTO_SYSROOT_ARCH}: ${sysroot_how}, ${sysroot_seconds} s")

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
# libasound.a and libsystemd.a both define a global page_size(): libasound must come first on every link line, so
# the linker never needs systemd's memory-util object (else: multiple definition, depending on the link order).
set_property(TARGET sotto::alsa APPEND PROPERTY INTERFACE_LINK_LIBRARIES sotto::systemd)

# libsodium: Debian ships the static archive.
find_library(SOTTO_SODIUM_A NAMES libsodium.a REQUIRED)
find_path(SOTTO_SODIUM_INCLUDE sodium.h REQUIRED)
add_library(sotto::sodium STATIC IMPORTED GLOBAL)
set_target_properties(sotto::sodium PROPERTIES IMPORTED_LOCATION "${SOTTO_SODIUM_A}"
  INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_SODIUM_INCLUDE}" INTERFACE_LINK_LIBRARIES pthread)

# Speech: pocketsphinx 5prealpha + sphinxbase (wake word, ASR) and speexdsp (frontend, resampler). Debian ships the
# static archives (host and :arm64 multiarch); the acoustic model is arch-independent data (pocketsphinx-en-us).
find_library(SOTTO_SPEEXDSP_A NAMES libspeexdsp.a REQUIRED)
find_path(SOTTO_SPEEXDSP_INCLUDE speex/speex_preprocess.h REQUIRED)
add_library(sotto::speexdsp STATIC IMPORTED GLOBAL)
set_target_properties(sotto::speexdsp PROPERTIES IMPORTED_LOCATION "${SOTTO_SPEEXDSP_A}"
  INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_SPEEXDSP_INCLUDE}" INTERFACE_LINK_LIBRARIES m)
find_library(SOTTO_SPHINXBASE_A NAMES libsphinxbase.a REQUIRED)
# sphinxbase's headers live in the multiarch include directory (they carry the architecture's sphinx_config.h).
find_path(SOTTO_SPHINXBASE_INCLUDE sphinxbase/sphinx_config.h REQUIRED)
find_library(SOTTO_POCKETSPHINX_A NAMES libpocketsphinx.a REQUIRED)
find_path(SOTTO_POCKETSPHINX_INCLUDE pocketsphinx.h PATH_SUFFIXES pocketsphinx REQUIRED)
add_library(sotto::sphinxbase STATIC IMPORTED GLOBAL)
set_target_properties(sotto::sphinxbase PROPERTIES IMPORTED_LOCATION "${SOTTO_SPHINXBASE_A}"
  INTERFACE_INCLUDE_DIRECTORIES
    "${SOTTO_SPHINXBASE_INCLUDE};${SOTTO_SPHINXBASE_INCLUDE}/sphinxbase"
  INTERFACE_LINK_LIBRARIES "m;pthread")
add_library(sotto::pocketsphinx STATIC IMPORTED GLOBAL)
set_target_properties(sotto::pocketsphinx PROPERTIES IMPORTED_LOCATION "${SOTTO_POCKETSPHINX_A}"
  INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_POCKETSPHINX_INCLUDE}" INTERFACE_LINK_LIBRARIES sotto::sphinxbase)

# Text to speech: flite (voices cmu_us_slt, kal, awb, rms) and espeak-ng. Debian ships the static archives (host and
# :arm64 multiarch); the flite voices are compiled into their archives, espeak-ng reads its espeak-ng-data at run time.
# flite's own audio output (au_alsa) resolves against our static libasound; we never play through it.
find_path(SOTTO_FLITE_INCLUDE flite/flite.h REQUIRED)
find_library(SOTTO_FLITE_A NAMES libflite.a REQUIRED)
add_library(sotto::flite STATIC IMPORTED GLOBAL)
set_target_properties(sotto::flite PROPERTIES IMPORTED_LOCATION "${SOTTO_FLITE_A}"
  INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_FLITE_INCLUDE}/flite" INTERFACE_LINK_LIBRARIES "sotto::alsa;m")
foreach(part usenglish cmulex cmu_us_slt cmu_us_kal cmu_us_awb cmu_us_rms)
  find_library(SOTTO_FLITE_${part}_A NAMES libflite_${part}.a REQUIRED)
  add_library(sotto::flite_${part} STATIC IMPORTED GLOBAL)
  set_target_properties(sotto::flite_${part} PROPERTIES IMPORTED_LOCATION "${SOTTO_FLITE_${part}_A}"
    INTERFACE_LINK_LIBRARIES sotto::flite)
endforeach()
# The voices need the US English language and the CMU lexicon.
foreach(voice cmu_us_slt cmu_us_kal cmu_us_awb cmu_us_rms)
  set_property(TARGET sotto::flite_${voice} PROPERTY INTERFACE_LINK_LIBRARIES
    "sotto::flite_usenglish;sotto::flite_cmulex;sotto::flite")
endforeach()
set_property(TARGET sotto::flite_usenglish PROPERTY INTERFACE_LINK_LIBRARIES "sotto::flite_cmulex;sotto::flite")
# espeak-ng: optional (the build falls back to flite alone without it). It needs sonic (static archive shipped) and
# pcaudiolib, whose static archive needs PulseAudio's libpulse-simple, shipped only as a shared library: we never
# let espeak-ng play audio itself, and engine/speech/espeak_no_audio.cpp stands in for pcaudiolib.
find_library(SOTTO_ESPEAK_NG_A NAMES libespeak-ng.a)
find_library(SOTTO_SONIC_A NAMES libsonic.a)
find_path(SOTTO_ESPEAK_NG_INCLUDE espeak-ng/espeak_ng.h)
if(SOTTO_ESPEAK_NG_A AND SOTTO_SONIC_A AND SOTTO_ESPEAK_NG_INCLUDE)
  add_library(sotto::espeak_ng STATIC IMPORTED GLOBAL)
  set_target_properties(sotto::espeak_ng PROPERTIES IMPORTED_LOCATION "${SOTTO_ESPEAK_NG_A}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOTTO_ESPEAK_NG_INCLUDE}" INTERFACE_LINK_LIBRARIES "${SOTTO_SONIC_A};pthread;m")
else()
  message(STATUS "espeak-ng: static libespeak-ng.a or libsonic.a not found (libespeak-ng-dev, libsonic-dev): "
                 "building the flite TTS engine only")
endif()
# libcurl (HTTP/HTTPS only) from the sysroot, over OpenSSL's static archives that Debian ships (libssl-dev, also
# :arm64): the cloud client.
find_library(SOTTO_LIBSSL_A NAMES libssl.a REQUIRED)
find_library(SOTTO_LIBCRYPTO_A NAMES libcrypto.a REQUIRED)
sotto_sysroot_lib(curl libcurl.a)
set_property(TARGET sotto::curl PROPERTY INTERFACE_COMPILE_DEFINITIONS CURL_STATICLIB)
set_property(TARGET sotto::curl PROPERTY INTERFACE_LINK_LIBRARIES "${SOTTO_LIBSSL_A};${SOTTO_LIBCRYPTO_A};dl;pthread")
