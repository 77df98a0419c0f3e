#pragma once

// Factories of the built-in estimators; estimators() lists them in this order.

#include "core/credit/estimator.h"

#include <memory>
#include <vector>

namespace creditlab::credit {

using EstimatorFactory = std::unique_ptr<Estimator> (*)();

std::unique_ptr<Estimator> makeGrpo();
std::unique_ptr<Estimator> makeGigpo();
std::unique_ptr<Estimator> makeTriage();
std::unique_ptr<Estimator> makeHas();
std::unique_ptr<Estimator> makeMgr();
std::unique_ptr<Estimator> makeRtmc();
std::unique_ptr<Estimator> makePair();
std::unique_ptr<Estimator> makeStepReward();
std::unique_ptr<Estimator> makeLoop();
std::unique_ptr<Estimator> makeScalarJudge();
std::unique_ptr<Estimator> makeValueBaseline();

/// All factories, in listing order. Add a new method here and in core/CMakeLists.txt.
std::vector<EstimatorFactory> builtinEstimatorFactories();

} // namespace creditlab::credit
