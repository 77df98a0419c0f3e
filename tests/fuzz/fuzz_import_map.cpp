// Mapping files (core/interchange/importmap.cpp): a fuzzed mapping YAML and the records it maps, separated by a line
// "%%". The mapping file is read from a scratch file in /dev/shm (the importer takes only a path); its errors must name
// it.

#include "tests/fuzz/import_common.h"

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static fuzz::ScratchFile mapFile("map.yaml");
    const auto p = fuzz::parts(fuzz::text(data, size), 2);
    ImportOptions options;
    options.format = ImportFormat::Mapped;
    options.mapPath = mapFile.write(p[0]);
    fuzz::readAll(p[1], options, mapFile.path());
    return 0;
}
