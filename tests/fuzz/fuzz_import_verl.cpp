// The verl importer (core/interchange/importformats.h, ImportFormat::Verl) on fuzzed text in memory: see
// import_common.h. The template is detected (ChatML, Llama 3) unless the input starts with a line "markers:BEGIN\tEND",
// which gives a custom marker pair (as `--markers BEGIN END` does); the rest of the input is the dump.

#include "tests/fuzz/import_common.h"

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view input = fuzz::text(data, size);
    ImportOptions options;
    options.format = ImportFormat::Verl;
    static constexpr std::string_view kMarkers = "markers:";
    if (input.starts_with(kMarkers)) {
        const auto eol = input.find('\n');
        std::string_view line = input.substr(kMarkers.size(), eol == std::string_view::npos ? input.npos : eol - kMarkers.size());
        input = eol == std::string_view::npos ? std::string_view() : input.substr(eol + 1);
        const auto tab = line.find('\t');
        TemplateMarkers markers { std::string(line.substr(0, tab)),
            tab == std::string_view::npos ? std::string() : std::string(line.substr(tab + 1)) };
        options.markers = std::move(markers); // empty ones too: `--markers "" ""` reaches the importer

    }
    fuzz::readAll(input, options);
    return 0;
}
