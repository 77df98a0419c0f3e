// The `recall` environment's step(text) with fuzzed actions: see env_common.h.

#include "tests/fuzz/env_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto& e = creditlab::fuzz::environment("recall");
    creditlab::fuzz::playEpisode(
        e, creditlab::fuzz::text(data, size), [](std::string_view) {}, [&](const creditlab::env::StepResult&) {
            e.admissibleCommands();
        });
    return 0;
}
