// The sharegpt importer (core/interchange/importformats.h, ImportFormat::ShareGpt) on fuzzed text in memory: see
// import_common.h.

#include "tests/fuzz/import_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    creditlab::ImportOptions options;
    options.format = creditlab::ImportFormat::ShareGpt;
    creditlab::fuzz::readAll(creditlab::fuzz::text(data, size), options);
    return 0;
}
