// Sweep files (core/learn/api/sweepspec.cpp SweepSpec::parse, which SweepSpec::load calls on the file's text; an
// experiment is a sweep with arms, seeds and claims): see config_common.h. A relative `base:` is looked for in
// resources/configs. A spec that parses must give its stored text (storedText) back as a spec that parses to the
// same trials.

#include "core/learn/api/sweep.h"
#include "tests/fuzz/config_common.h"

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(fuzz::text(data, size));
    if (fuzz::namesSystemFiles(input))
        return 0;
    fuzz::expectConfigErrors("SweepSpec::parse", [&] {
        const learn::SweepSpec spec = learn::SweepSpec::parse(input, std::string(fuzz::kConfigName), fuzz::kConfigDir);
        std::string stored;
        try {
            stored = spec.storedText();
            const learn::SweepSpec back = learn::SweepSpec::parse(stored, "stored.yaml", fuzz::kConfigDir);
            if (back.trials.size() != spec.trials.size())
                fuzz::finding("a stored sweep reads back with other trials", stored);
            for (std::size_t i = 0; i < spec.trials.size(); ++i)
                if (back.trials[i].paramsText() != spec.trials[i].paramsText())
                    fuzz::finding("a stored sweep reads back with other trials", stored);
        } catch (const std::exception& e) {
            fuzz::finding("a stored sweep does not read back", std::string(e.what()) + "\n" + stored);
        }
    });
    return 0;
}
