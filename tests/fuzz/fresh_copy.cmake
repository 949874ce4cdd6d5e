# SPDX-License-Identifier: MIT
# cmake -DSOURCE=dir -DDEST=dir -DARTIFACTS=dir -P fresh_copy.cmake: DEST becomes an exact copy of SOURCE (the fuzzer
# adds to its first corpus directory; the committed seeds stay untouched), ARTIFACTS an empty directory.
file(REMOVE_RECURSE "${DEST}" "${ARTIFACTS}")
file(COPY "${SOURCE}/" DESTINATION "${DEST}")
file(MAKE_DIRECTORY "${ARTIFACTS}")
