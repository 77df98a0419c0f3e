#include "cudamemory.h"

#if defined(CREDITLAB_HF_DEVICE_CUDA_STATS)
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace creditlab::device {

void resetCudaPeak()
{
#if defined(CREDITLAB_HF_DEVICE_CUDA_STATS)
    c10::cuda::CUDACachingAllocator::resetPeakStats(0);
#endif
}

std::optional<std::int64_t> cudaPeakBytes()
{
#if defined(CREDITLAB_HF_DEVICE_CUDA_STATS)
    // Index 0 of each stat array is the aggregate over the small and large pools (StatType::AGGREGATE) in every
    // LibTorch from 1.13 to 2.x; the enum itself moved between namespaces, so it is not named here.
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(0);
    return static_cast<std::int64_t>(stats.allocated_bytes[0].peak);
#else
    return std::nullopt;
#endif
}

} // namespace creditlab::device
