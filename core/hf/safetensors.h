#pragma once

// safetensors files, read through mmap without copying (huggingface/safetensors, "Format"): an 8-byte little-endian
// header size N, N bytes of JSON `{"NAME": {"dtype", "shape", "data_offsets": [BEGIN, END]}, "__metadata__": {...}}`,
// then the tensors' bytes, little-endian and C order. Torch-free: the decoder wraps the views in tensors.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace creditlab::hf {

/// The element types of the format. Weights must be F32, F16 or BF16; the others are read so that a file holding
/// them is reported by name rather than refused as malformed.
enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

/// "F32", "BF16", ... as the format spells them.
const char* dtypeName(DType dtype);
/// Bytes per element.
std::size_t dtypeSize(DType dtype);

/// One tensor of a mapped file: its bytes stay valid while the file (or a copy of its shared_ptr) lives.
struct TensorView {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    const std::byte* data = nullptr;
    std::size_t bytes = 0;
    std::int64_t elements() const;
};

/// One mapped safetensors file. Immutable; any thread.
class SafetensorsFile {
public:
    /// Maps `path` read-only and checks the header: its size against the file, valid JSON, every entry's dtype,
    /// shape and offsets (inside the data, matching the shape's byte size, not overlapping). Throws HfError naming
    /// the file and the tensor or key.
    static std::shared_ptr<const SafetensorsFile> open(const std::string& path);
    ~SafetensorsFile();
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    const std::string& path() const { return m_path; }
    /// In the header's order.
    const std::vector<TensorView>& tensors() const { return m_tensors; }
    /// nullptr when absent.
    const TensorView* find(const std::string& name) const;
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }
    std::size_t fileSize() const { return m_size; }

private:
    SafetensorsFile() = default;
    std::string m_path;
    void* m_map = nullptr;
    std::size_t m_size = 0;
    std::vector<TensorView> m_tensors;
    std::map<std::string, std::size_t> m_index;
    std::map<std::string, std::string> m_metadata;
};

/// The weights of a model folder: `model.safetensors`, or the shards that `model.safetensors.index.json`'s
/// `weight_map` names (each opened once). Immutable; any thread.
class Checkpoint {
public:
    /// Throws HfError naming the file: no weights, a folder with only pickle weights (`pytorch_model.bin`, refused:
    /// unpickling runs code), a bad index, a shard that lacks a tensor the index puts in it, or a bad file.
    static Checkpoint open(const std::string& folder);

    /// nullptr when absent.
    const TensorView* find(const std::string& name) const;
    /// Every tensor name, sorted.
    std::vector<std::string> names() const;
    /// The file that holds `name` ("" when absent), for error messages.
    std::string fileOf(const std::string& name) const;
    /// The mapped file holding `name` (keeps its bytes alive), or nullptr.
    std::shared_ptr<const SafetensorsFile> owner(const std::string& name) const;
    const std::vector<std::shared_ptr<const SafetensorsFile>>& files() const { return m_files; }
    /// Sum of the tensors' bytes.
    std::size_t totalBytes() const;

private:
    std::vector<std::shared_ptr<const SafetensorsFile>> m_files;
    std::map<std::string, std::pair<std::size_t, const TensorView*>> m_tensors; ///< name -> (file index, view)
};

/// A tensor to write: its bytes are copied as they are (little-endian, C order).
struct TensorData {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::span<const std::byte> bytes;
};

/// Writes a safetensors file atomically (a temporary file renamed into place), tensors in the given order, the
/// header padded with spaces to a multiple of 8 bytes. Throws HfError naming the path on a size mismatch or a write
/// failure; nothing is left behind on failure.
void writeSafetensors(const std::string& path, const std::vector<TensorData>& tensors,
    const std::map<std::string, std::string>& metadata = {});

/// float32 -> bfloat16 with round-to-nearest-even (what torch's `.to(torch.bfloat16)` does); NaN stays NaN.
std::uint16_t floatToBf16(float value);
float bf16ToFloat(std::uint16_t value);
/// IEEE half <-> float32.
float f16ToFloat(std::uint16_t value);

} // namespace creditlab::hf
