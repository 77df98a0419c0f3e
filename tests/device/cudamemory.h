#pragma once

// Peak CUDA memory of this process as the caching allocator counts it (torch.cuda.max_memory_allocated's number),
// where the LibTorch it is built against has the CUDA headers and their API compiled at configure time
// (CREDITLAB_HF_DEVICE_CUDA_STATS, tests/device/CMakeLists.txt); elsewhere the functions report nothing and run.sh's
// nvidia-smi samples are the figure.

#include <cstdint>
#include <optional>

namespace creditlab::device {

/// Resets device 0's peak counters; does nothing without the CUDA API.
void resetCudaPeak();
/// Bytes allocated at the peak since the last reset on device 0, or nothing without the CUDA API.
std::optional<std::int64_t> cudaPeakBytes();

} // namespace creditlab::device
