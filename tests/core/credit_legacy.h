#pragma once

// The estimators as they computed before the columnar CreditBatch (commit 806d4cd): per turn over the Batch's
// Turn structs, hashing the state and action strings on every call. Kept verbatim (only the registry members
// removed) as the reference that tst_credit_columnar compares the columnar estimators against.

#include "core/credit/estimator.h"

namespace creditlab::test::legacy {

credit::CreditResult mgr(const Batch& batch, const credit::Params& params);
credit::CreditResult loop(const Batch& batch, const credit::Params& params);
credit::CreditResult rtmc(const Batch& batch, const credit::Params& params);
credit::CreditResult gigpo(const Batch& batch, const credit::Params& params);
credit::CreditResult triage(const Batch& batch, const credit::Params& params);
credit::CreditResult stepReward(const Batch& batch, const credit::Params& params);

} // namespace creditlab::test::legacy
