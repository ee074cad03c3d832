# SPDX-License-Identifier: GPL-3.0-or-later
# Flags for our own targets. Third-party headers (Qt, protobuf, GoogleTest) come in as
# system includes through their imported targets, so -Werror applies to our code only.

if(CHAOSCOPE_SANITIZE)
    # Applied to every target so that the standard library and our code agree on the ABI.
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()

if(CHAOSCOPE_TSAN)
    if(CHAOSCOPE_SANITIZE)
        message(FATAL_ERROR "CHAOSCOPE_TSAN and CHAOSCOPE_SANITIZE exclude each other (ThreadSanitizer cannot share a process with AddressSanitizer)")
    endif()
    # Qt itself is not instrumented: races inside Qt are not seen, and Qt's own synchronisation
    # (QMutex, QFutureInterface, the event loop) is only partly understood by TSan; see
    # tests/tsan.supp for what is suppressed and why.
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
endif()

if(CHAOSCOPE_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "CHAOSCOPE_BUILD_FUZZERS needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++-14)")
    endif()
    # Coverage feedback for libFuzzer in everything the parsers call; the fuzz programs link
    # libFuzzer's main themselves.
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()

# lld links a sanitized test program in a third of the time of the default linker (1.9 s
# against 6 s here), and a build links some 150 of them; used where it is installed.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" CHAOSCOPE_HAVE_LLD)
if(CHAOSCOPE_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
endif()

function(chaoscope_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow=local -Wnon-virtual-dtor)
    if(CHAOSCOPE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
