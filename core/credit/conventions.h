#pragma once

// Trainer conventions (docs/conventions.md): `conventions=verl` or `conventions=verl-agent` presets the keys on which
// those trainers' own code computes differently from CreditLab's defaults, so that `credit` gives exactly the
// advantages the trainer would. A preset only sets defaults: an explicit key wins over it, wherever it stands among
// the assignments. `conventions=creditlab` (the default) sets nothing.

#include "core/credit/params.h"

#include <string>
#include <utility>
#include <vector>

namespace creditlab::credit {

/// The name of the preset parameter.
inline constexpr const char* kConventionsKey = "conventions";
/// The preset that keeps every key at CreditLab's default.
inline constexpr const char* kCreditlabConventions = "creditlab";

/// The keys preset `name` sets and their values, over all methods; empty for "creditlab" and unknown names.
const std::vector<std::pair<std::string, std::string>>& conventionPreset(const std::string& name);

/// The `conventions` parameter of a method whose parameters are `specs`: a choice of "creditlab" and `presets`, its
/// doc naming what each preset sets among `specs`.
ParamSpec conventionsSpec(const std::vector<std::string>& presets, const std::vector<ParamSpec>& specs);

/// `specs` with conventionsSpec(presets, specs) appended: a method's last parameter.
std::vector<ParamSpec> withConventions(std::vector<ParamSpec> specs, const std::vector<std::string>& presets);

/// `assignments` with the preset expanded: when `specs` declares `conventions` and the last assignment of it names
/// a preset, that preset's values for the keys `specs` declares come first, then `assignments` in their order, so an
/// explicit key overrides the preset. Throws ParamError naming the key, the method and the known presets when the
/// value is not one of them. Without a `conventions` spec, returns `assignments` as they are.
std::vector<std::pair<std::string, std::string>> expandConventions(const std::string& method,
    const std::vector<ParamSpec>& specs, const std::vector<std::pair<std::string, std::string>>& assignments);

} // namespace creditlab::credit
