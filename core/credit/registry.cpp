#include "core/credit/methods.h"

namespace creditlab::credit {

std::vector<EstimatorFactory> builtinEstimatorFactories()
{
    return {
        makeGrpo,
        makeGigpo,
        makeTriage,
        makeHas,
        makeMgr,
        makeRtmc,
        makePair,
        makeStepReward,
        makeLoop,
        makeScalarJudge,
        makeValueBaseline,
    };
}

} // namespace creditlab::credit
