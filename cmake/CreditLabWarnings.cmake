# Per-target settings shared by every CreditLab target (no global flags).
function(creditlab_target_defaults target)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        # GCC 12 reports "literal" + std::string as overlapping memcpy (GCC bug 105329, a false positive).
        target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    target_compile_definitions(${target} PRIVATE QT_NO_KEYWORDS)
    if(CREDITLAB_SANITIZE)
        target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
    if(CREDITLAB_FUZZ)
        # Coverage for libFuzzer (its runtime is linked into the fuzz executables only) and ASan + UBSan; undefined
        # behaviour aborts, so that the fuzzer sees it as a crash.
        target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
            -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
endfunction()
