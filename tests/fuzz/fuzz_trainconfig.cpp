// Train configs (core/learn/api/trainconfig.cpp TrainConfig::parse, which TrainConfig::load calls on the file's
// text): see config_common.h. A config that parses must write back (toYaml) to text that parses to the same values.

#include "tests/fuzz/config_common.h"

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(fuzz::text(data, size));
    if (fuzz::namesSystemFiles(input))
        return 0;
    fuzz::expectConfigErrors("TrainConfig::parse", [&] {
        const learn::TrainConfig config = learn::TrainConfig::parse(input, std::string(fuzz::kConfigName));
        std::string yaml;
        try {
            yaml = config.toYaml();
            const learn::TrainConfig back = learn::TrainConfig::parse(yaml, "written.yaml");
            if (back.toYaml() != yaml)
                fuzz::finding("a written config reads back different", yaml + "\n----\n" + back.toYaml());
        } catch (const std::exception& e) {
            fuzz::finding("a written config does not read back", std::string(e.what()) + "\n" + yaml);
        }
    });
    return 0;
}
