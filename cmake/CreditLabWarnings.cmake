# Per-target settings shared by every CreditLab target (no global flags).
if(CREDITLAB_SANITIZE AND CREDITLAB_SANITIZE_THREAD)
    message(FATAL_ERROR "CREDITLAB_SANITIZE (ASan+UBSan) and CREDITLAB_SANITIZE_THREAD (TSan) exclude each other: "
        "use the asan or the tsan preset, each in its own build folder (docs/sanitizers.md)")
endif()
function(creditlab_target_defaults target)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        # GCC 12 reports "literal" + std::string as overlapping memcpy (GCC bug 105329, a false positive).
        target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    target_compile_definitions(${target} PRIVATE QT_NO_KEYWORDS)
    # Debian's LibTorch loads Qt 5 (through OpenCV's highgui) into every process that loads it, beside our Qt 6.
    # Unoptimised builds emit Qt 6's inline members (QByteArray::append(const char*), QByteArray::isNull(), ...)
    # as weak symbols, and an executable exports those that a linked library references: Qt 5's libraries do, so
    # their calls bound to Qt 6's code with Qt 5's objects (tst_learn_tokenizer crashed in Qt5Widgets' static
    # initialisation under the asan preset). Hidden inline members are never exported. Not on the shared core
    # library: it has no Qt, and its inline members stay as they were.
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "SHARED_LIBRARY")
        set_target_properties(${target} PROPERTIES VISIBILITY_INLINES_HIDDEN ON)
    endif()
    if(CREDITLAB_SANITIZE)
        target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
    if(CREDITLAB_SANITIZE_THREAD)
        # Only our code is instrumented; Qt, LibTorch, OpenMP and OpenBLAS are Debian's (cmake/sanitizers/tsan.supp).
        target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=thread)
    endif()
    if(CREDITLAB_FUZZ)
        # Coverage for libFuzzer (its runtime is linked into the fuzz executables only) and ASan + UBSan; undefined
        # behaviour aborts, so that the fuzzer sees it as a crash.
        target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
            -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
endfunction()
