#pragma once

// The environments' fuzz targets (fuzz_household.cpp, fuzz_shop.cpp, fuzz_searchqa.cpp, fuzz_recall.cpp): fuzzed
// actions. The first two bytes pick the episode (seed, split: the low bit of the first byte is eval); the rest is one
// action per line, stepped until the episode ends. Any action text is valid input: a step may answer "Nothing
// happens." but must not throw, and its result must be sane (progress in [0, 1], a finite reward, done at the end).

#include "core/env/environment.h"
#include "tests/fuzz/fuzzutil.h"

#include <cmath>

namespace creditlab::fuzz {

/// One environment per process (reset per input), with a step limit above any input's line count.
inline env::Environment& environment(std::string_view name)
{
    static std::unique_ptr<env::Environment> e = env::makeEnvironment(name, { { "max_steps", "100000" } });
    return *e;
}

/// Runs the input's episode; `afterStep` sees the environment after each step (and `beforeStep` each action first).
template <typename Before, typename After>
void playEpisode(env::Environment& e, std::string_view input, Before&& beforeStep, After&& afterStep)
{
    if (input.size() < 2)
        return;
    const std::uint64_t seed = static_cast<unsigned char>(input[0]) >> 1 | static_cast<unsigned char>(input[1]) << 7;
    const env::Split split = (input[0] & 1) ? env::Split::Eval : env::Split::Train;
    input.remove_prefix(2);
    try {
        e.reset(seed, split);
        while (!e.done()) {
            const auto eol = input.find('\n');
            const std::string_view action = input.substr(0, eol);
            beforeStep(action);
            const env::StepResult& r = e.step(action);
            if (!std::isfinite(r.reward) || !(r.info.progress >= 0.0 && r.info.progress <= 1.0))
                finding("a step with a bad reward or progress", r.feedback);
            if (r.done != e.done() || (r.success && !r.done))
                finding("a step's done and success disagree", r.feedback);
            afterStep(r);
            if (eol == std::string_view::npos)
                break;
            input.remove_prefix(eol + 1);
        }
        e.admissibleCommands();
        e.stateKey();
    } catch (const std::exception& ex) {
        unexpected("an episode", ex);
    }
}

} // namespace creditlab::fuzz
