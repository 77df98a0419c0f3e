// safetensors files (core/hf/safetensors.h): the input is the file. It either opens, and then every tensor's bytes
// fit in the file, match its shape and overlap no other, and the tensors written back read back equal; or it
// throws HfError naming the file.

#include "core/hf/error.h"
#include "core/hf/safetensors.h"
#include "tests/fuzz/fuzzutil.h"

#include <cstring>

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::ScratchFile file("in.safetensors");
    const std::string& path = file.write(fuzz::text(data, size));
    try {
        const auto opened = hf::SafetensorsFile::open(path);
        std::vector<hf::TensorData> again;
        std::size_t total = 0;
        for (const hf::TensorView& t : opened->tensors()) {
            total += t.bytes;
            if (total > size)
                fuzz::finding("tensors larger than the file", t.name);
            if (static_cast<std::size_t>(t.elements()) * hf::dtypeSize(t.dtype) != t.bytes)
                fuzz::finding("a tensor's bytes do not match its shape", t.name);
            again.push_back({ t.name, t.dtype, t.shape, { t.data, t.bytes } });
        }
        fuzz::ScratchFile copy("out.safetensors");
        const std::string copyPath = copy.write("");
        hf::writeSafetensors(copyPath, again, opened->metadata());
        const auto reread = hf::SafetensorsFile::open(copyPath);
        if (reread->tensors().size() != again.size() || reread->metadata() != opened->metadata())
            fuzz::finding("a written file does not read back");
        for (const hf::TensorView& t : reread->tensors()) {
            const hf::TensorView* o = opened->find(t.name);
            if (o == nullptr || o->shape != t.shape || o->dtype != t.dtype
                || std::memcmp(o->data, t.data, t.bytes) != 0)
                fuzz::finding("a written tensor differs", t.name);
        }
    } catch (const hf::HfError& e) {
        fuzz::note(e.what());
        if (std::string_view(e.what()).find(path) == std::string_view::npos)
            fuzz::finding("an error that does not name the file", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("SafetensorsFile::open", e);
    }
    return 0;
}
