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
endfunction()
