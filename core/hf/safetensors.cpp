#include "core/hf/safetensors.h"

#include "core/hf/error.h"
#include "core/storage/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace creditlab::hf {

namespace {

// Larger headers are refused before parsing (the Rust crate's limit is 100 MB as well).
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

struct DTypeEntry {
    DType dtype;
    const char* name;
    std::size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    { DType::F64, "F64", 8 },
    { DType::F32, "F32", 4 },
    { DType::F16, "F16", 2 },
    { DType::BF16, "BF16", 2 },
    { DType::I64, "I64", 8 },
    { DType::I32, "I32", 4 },
    { DType::I16, "I16", 2 },
    { DType::I8, "I8", 1 },
    { DType::U8, "U8", 1 },
    { DType::Bool, "BOOL", 1 },
};

[[noreturn]] void fail(const std::string& file, const std::string& what) { throw HfError(file + ": " + what); }

/// a * b, failing on overflow past 2^62.
std::uint64_t checkedMul(std::uint64_t a, std::uint64_t b, const std::string& file, const std::string& tensor)
{
    if (b != 0 && a > (std::uint64_t(1) << 62) / b)
        fail(file, "tensor \"" + tensor + "\": shape too large");
    return a * b;
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

} // namespace

const char* dtypeName(DType dtype)
{
    for (const auto& e : kDTypes)
        if (e.dtype == dtype)
            return e.name;
    return "?";
}

std::size_t dtypeSize(DType dtype)
{
    for (const auto& e : kDTypes)
        if (e.dtype == dtype)
            return e.size;
    return 0;
}

std::int64_t TensorView::elements() const
{
    std::int64_t n = 1;
    for (const std::int64_t d : shape)
        n *= d;
    return n;
}

std::shared_ptr<const SafetensorsFile> SafetensorsFile::open(const std::string& path)
{
    std::shared_ptr<SafetensorsFile> file(new SafetensorsFile);
    file->m_path = path;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(path, "not a regular file");
    }
    file->m_size = static_cast<std::size_t>(st.st_size);
    if (file->m_size < 8) {
        ::close(fd);
        fail(path, "truncated: " + std::to_string(file->m_size) + " bytes, shorter than the 8-byte header size");
    }
    void* map = ::mmap(nullptr, file->m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED)
        fail(path, std::string("cannot map: ") + std::strerror(errno));
    file->m_map = map;
    const auto* bytes = static_cast<const std::byte*>(map);

    std::uint64_t headerSize = 0;
    std::memcpy(&headerSize, bytes, 8);
    if constexpr (std::endian::native == std::endian::big)
        headerSize = __builtin_bswap64(headerSize);
    if (headerSize > kMaxHeaderBytes)
        fail(path, "header size " + std::to_string(headerSize) + " is past the 100 MB limit (not a safetensors file?)");
    if (headerSize > file->m_size - 8)
        fail(path,
            "truncated: the header claims " + std::to_string(headerSize) + " bytes but the file has "
                + std::to_string(file->m_size - 8) + " after the size");
    const std::string_view headerText(reinterpret_cast<const char*>(bytes + 8), headerSize);
    if (headerText.empty() || headerText.front() != '{')
        fail(path, "header: does not start with '{' (not a safetensors file?)");
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(headerText);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number past double
        fail(path, std::string("header: invalid JSON: ") + e.what());
    }
    if (!header.is_object())
        fail(path, "header: not a JSON object");

    const std::byte* data = bytes + 8 + headerSize;
    const std::uint64_t dataSize = file->m_size - 8 - headerSize;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object())
                fail(path, "key \"__metadata__\": expected an object of strings");
            for (const auto& [key, value] : entry.items()) {
                if (!value.is_string())
                    fail(path, "key \"__metadata__." + key + "\": expected a string");
                file->m_metadata[key] = value.get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor \"" + name + "\"";
        if (!entry.is_object())
            fail(path, where + ": expected an object");
        const auto dtypeIt = entry.find("dtype");
        if (dtypeIt == entry.end() || !dtypeIt->is_string())
            fail(path, where + ": key \"dtype\" missing or not a string");
        const std::string dtypeText = dtypeIt->get<std::string>();
        const DTypeEntry* dtype = nullptr;
        for (const auto& e : kDTypes)
            if (dtypeText == e.name)
                dtype = &e;
        if (dtype == nullptr)
            fail(path, where + ": unknown dtype \"" + dtypeText + "\"");
        const auto shapeIt = entry.find("shape");
        if (shapeIt == entry.end() || !shapeIt->is_array())
            fail(path, where + ": key \"shape\" missing or not an array");
        TensorView view;
        view.name = name;
        view.dtype = dtype->dtype;
        std::uint64_t expected = dtype->size;
        for (const auto& d : *shapeIt) {
            if (!d.is_number_unsigned())
                fail(path, where + ": key \"shape\": expected non-negative integers");
            const std::uint64_t dim = d.get<std::uint64_t>();
            expected = checkedMul(expected, dim, path, name);
            view.shape.push_back(static_cast<std::int64_t>(dim));
        }
        const auto offsetsIt = entry.find("data_offsets");
        if (offsetsIt == entry.end() || !offsetsIt->is_array() || offsetsIt->size() != 2
            || !(*offsetsIt)[0].is_number_unsigned() || !(*offsetsIt)[1].is_number_unsigned())
            fail(path, where + ": key \"data_offsets\": expected [BEGIN, END]");
        const std::uint64_t begin = (*offsetsIt)[0].get<std::uint64_t>();
        const std::uint64_t end = (*offsetsIt)[1].get<std::uint64_t>();
        if (begin > end)
            fail(path,
                where + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] is reversed");
        if (end > dataSize)
            fail(path,
                where + ": data_offsets end " + std::to_string(end) + " is past the end of the data ("
                    + std::to_string(dataSize) + " bytes; the file is truncated or the header is wrong)");
        if (end - begin != expected)
            fail(path,
                where + ": " + std::to_string(end - begin) + " bytes for a " + dtype->name + " shape that needs "
                    + std::to_string(expected));
        view.data = data + begin;
        view.bytes = static_cast<std::size_t>(end - begin);
        if (begin < end)
            ranges.emplace_back(begin, end);
        file->m_index[name] = file->m_tensors.size();
        file->m_tensors.push_back(std::move(view));
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].first < ranges[i - 1].second)
            fail(path, "two tensors overlap at data offset " + std::to_string(ranges[i].first));
    return file;
}

SafetensorsFile::~SafetensorsFile()
{
    if (m_map != nullptr)
        ::munmap(m_map, m_size);
}

const TensorView* SafetensorsFile::find(const std::string& name) const
{
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : &m_tensors[it->second];
}

Checkpoint Checkpoint::open(const std::string& folder)
{
    namespace fs = std::filesystem;
    const fs::path dir(folder);
    Checkpoint checkpoint;
    const fs::path single = dir / "model.safetensors";
    const fs::path index = dir / "model.safetensors.index.json";
    auto add = [&](const std::shared_ptr<const SafetensorsFile>& file) {
        const std::size_t at = checkpoint.m_files.size();
        checkpoint.m_files.push_back(file);
        for (const TensorView& t : file->tensors())
            checkpoint.m_tensors[t.name] = { at, &t };
    };
    if (fs::exists(index)) {
        const std::string indexPath = index.string();
        std::ifstream in(index);
        nlohmann::json doc;
        try {
            doc = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number past double
            fail(indexPath, std::string("invalid JSON: ") + e.what());
        }
        if (!doc.is_object() || !doc.contains("weight_map") || !doc["weight_map"].is_object())
            fail(indexPath, "key \"weight_map\": missing or not an object");
        std::map<std::string, std::vector<std::string>> byShard;
        for (const auto& [tensor, shard] : doc["weight_map"].items()) {
            if (!shard.is_string())
                fail(indexPath, "key \"weight_map." + tensor + "\": expected a file name");
            const std::string shardName = shard.get<std::string>();
            if (shardName.empty() || shardName.find('/') != std::string::npos || shardName == "..")
                fail(indexPath, "key \"weight_map." + tensor + "\": \"" + shardName + "\" is not a file in the folder");
            byShard[shardName].push_back(tensor);
        }
        if (byShard.empty())
            fail(indexPath, "key \"weight_map\": empty");
        for (const auto& [shardName, tensors] : byShard) {
            const fs::path shardPath = dir / shardName;
            if (!fs::exists(shardPath))
                fail(indexPath, "names shard \"" + shardName + "\", which is missing from the folder");
            const auto file = SafetensorsFile::open(shardPath.string());
            for (const std::string& t : tensors)
                if (file->find(t) == nullptr)
                    fail(
                        shardPath.string(), "lacks tensor \"" + t + "\", which " + fileName(indexPath) + " puts in it");
            add(file);
        }
        return checkpoint;
    }
    if (fs::exists(single)) {
        add(SafetensorsFile::open(single.string()));
        return checkpoint;
    }
    for (const char* pickle : { "pytorch_model.bin", "pytorch_model.bin.index.json", "model.bin" })
        if (fs::exists(dir / pickle))
            fail(folder,
                std::string("holds only pickle weights (") + pickle
                    + "); CreditLab reads safetensors only, since unpickling runs code. Convert them with "
                      "transformers' save_pretrained(..., safe_serialization=True)");
    fail(folder, "no model.safetensors or model.safetensors.index.json");
}

const TensorView* Checkpoint::find(const std::string& name) const
{
    const auto it = m_tensors.find(name);
    return it == m_tensors.end() ? nullptr : it->second.second;
}

std::vector<std::string> Checkpoint::names() const
{
    std::vector<std::string> out;
    out.reserve(m_tensors.size());
    for (const auto& [name, entry] : m_tensors)
        out.push_back(name);
    return out;
}

std::string Checkpoint::fileOf(const std::string& name) const
{
    const auto it = m_tensors.find(name);
    return it == m_tensors.end() ? std::string() : m_files[it->second.first]->path();
}

std::shared_ptr<const SafetensorsFile> Checkpoint::owner(const std::string& name) const
{
    const auto it = m_tensors.find(name);
    return it == m_tensors.end() ? nullptr : m_files[it->second.first];
}

std::size_t Checkpoint::totalBytes() const
{
    std::size_t total = 0;
    for (const auto& [name, entry] : m_tensors)
        total += entry.second->bytes;
    return total;
}

void writeSafetensors(
    const std::string& path, const std::vector<TensorData>& tensors, const std::map<std::string, std::string>& metadata)
{
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    std::set<std::string> seen;
    for (const TensorData& t : tensors) {
        if (!seen.insert(t.name).second)
            fail(path, "tensor \"" + t.name + "\" given twice");
        std::uint64_t expected = dtypeSize(t.dtype);
        for (const std::int64_t d : t.shape) {
            if (d < 0)
                fail(path, "tensor \"" + t.name + "\": negative dimension");
            expected = checkedMul(expected, static_cast<std::uint64_t>(d), path, t.name);
        }
        if (expected != t.bytes.size())
            fail(path,
                "tensor \"" + t.name + "\": " + std::to_string(t.bytes.size()) + " bytes for a shape that needs "
                    + std::to_string(expected));
        header[t.name] = { { "dtype", dtypeName(t.dtype) }, { "shape", t.shape },
            { "data_offsets", { offset, offset + expected } } };
        offset += expected;
    }
    std::string headerText = header.dump();
    headerText.append((8 - headerText.size() % 8) % 8, ' ');
    std::uint64_t size = headerText.size();
    if constexpr (std::endian::native == std::endian::big)
        size = __builtin_bswap64(size);
    try {
        AtomicFile out(path);
        out.write(std::string_view(reinterpret_cast<const char*>(&size), 8));
        out.write(headerText);
        for (const TensorData& t : tensors)
            out.write(std::string_view(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size()));
        out.commit();
    } catch (const HfError&) {
        throw;
    } catch (const std::exception& e) {
        throw HfError(e.what());
    }
}

std::uint16_t floatToBf16(float value)
{
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0)
        return static_cast<std::uint16_t>((bits >> 16) | 0x0040u); // quiet NaN
    const std::uint32_t roundingBias = 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>((bits + roundingBias) >> 16);
}

float bf16ToFloat(std::uint16_t value) { return std::bit_cast<float>(static_cast<std::uint32_t>(value) << 16); }

float f16ToFloat(std::uint16_t value)
{
    const std::uint32_t sign = (value & 0x8000u) << 16;
    std::uint32_t exponent = (value >> 10) & 0x1fu;
    std::uint32_t mantissa = value & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exponent = 127 - 15 + 1;
            while ((mantissa & 0x400u) == 0) {
                mantissa <<= 1;
                --exponent;
            }
            bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
        }
    } else {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

} // namespace creditlab::hf
