#pragma once

#include "core/credit/estimator.h"

#include <string>

namespace creditlab::credit {

/// One trajectory's credits as a JSON object (DESIGN.md's credit output line, without its newline):
/// {"id":..., "advantages":[one per turn]}. When every turn came from another trainer's dump with its own index
/// (kept first in Turn::extra by the importers: "message_index" for chat, ShareGPT and verl, "step_index" for
/// per-step rows), the object also carries that index per turn, parallel to "advantages", so that the trainer
/// can join the credit back on (id, index). With `details`, the method's per-turn detail arrays follow under
/// "details". What `creditlab-cli credit` writes per line and what `serve`'s /v1/credit returns per trajectory,
/// byte for byte. Any thread.
std::string creditJson(const Trajectory& trajectory, const CreditResult& result, std::size_t index, bool details);

} // namespace creditlab::credit
