#pragma once

// WebShop's reward (Yao et al. 2022, "WebShop: Towards Scalable Real-World Web Interaction with Grounded
// Language Agents", §3.2; princeton-nlp/WebShop web_agent_site/engine/goal.py get_reward and its helpers
// get_type_reward, get_attribute_reward, get_option_reward), reimplemented in C++:
//   r = r_type * (matched attributes + matched options + [price <= price_upper]) / (|U_att| + |U_opt| + 1).
// Internal to core/env.

#include "core/env/shop_catalog.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::env::shop {

/// The reward and its parts, as WebShop's verbose get_reward reports them.
struct RewardParts {
    double total = 0.0;
    double rType = 0.0;
    double rAtt = 0.0;
    std::optional<double> rOption; ///< none when the goal names no options
    std::optional<double> rPrice; ///< none when price_upper <= 0
    int attributeMatches = 0;
    int optionMatches = 0;
    bool queryMatch = false;
    bool categoryMatch = false;
    double titleScore = 0.0;
};

/// The reward of buying `purchased` at `price` with `options` (dimension, value) selected, for `goal`. Pure.
RewardParts webshopReward(const Product& purchased, const Goal& goal, double price,
    const std::vector<std::pair<std::string, std::string>>& options);

/// get_type_reward's r_type alone (1, 0.5, 0.1 or 0), with the parts it reads written into `parts`. Pure.
double typeReward(const Product& purchased, const Goal& goal, RewardParts& parts);

/// thefuzz's token_set_ratio (default processing: lower case, non-alphanumerics as spaces), 0..100. Pure.
int tokenSetRatio(std::string_view a, std::string_view b);
/// WebShop's normalize_color: the first colour of its colour list that `value` contains, else `value`. Pure.
std::string normalizeColor(std::string_view value);

} // namespace creditlab::env::shop
