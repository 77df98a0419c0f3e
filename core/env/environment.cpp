#include "core/env/environment.h"

#include "core/env/household.h"
#include "core/env/recall.h"
#include "core/env/remote.h"
#include "core/env/searchqa.h"
#include "core/env/shop.h"

#include <stdexcept>

namespace creditlab::env {

std::string_view splitName(Split split) { return split == Split::Train ? "train" : "eval"; }

std::optional<Split> parseSplit(std::string_view text)
{
    if (text == "train")
        return Split::Train;
    if (text == "eval")
        return Split::Eval;
    return std::nullopt;
}

const std::vector<EnvironmentInfo>& environments()
{
    static const std::vector<EnvironmentInfo> list = {
        { "household", "a text household in the style of ALFWorld: six task types, four scenes",
            household::HouseholdEnv::paramSpecs(),
            [](const credit::Params& p) { return std::make_unique<household::HouseholdEnv>(p); } },
        { "shop", "a web shop in the style of WebShop: search, results, item options, buy; its reward",
            shop::ShopEnv::paramSpecs(),
            [](const credit::Params& p) { return std::make_unique<shop::ShopEnv>(p); } },
        { "searchqa", "multi-hop questions over a search engine in the style of Search-R1: <search>, <answer>",
            searchqa::SearchQaEnv::paramSpecs(),
            [](const credit::Params& p) { return std::make_unique<searchqa::SearchQaEnv>(p); } },
        { "recall", "the smallest memory task: a code word shown at turn 1 is asked for turns later",
            recall::RecallEnv::paramSpecs(),
            [](const credit::Params& p) { return std::make_unique<recall::RecallEnv>(p); } },
        { "remote", "an environment served over HTTP by an AgentGym-style server (alfworld, webshop, searchqa, babyai)",
            remote::RemoteEnv::paramSpecs(),
            [](const credit::Params& p) { return std::make_unique<remote::RemoteEnv>(p); } },
    };
    return list;
}

const EnvironmentInfo* findEnvironment(std::string_view name)
{
    for (const EnvironmentInfo& info : environments())
        if (info.name == name)
            return &info;
    return nullptr;
}

std::unique_ptr<Environment> makeEnvironment(
    std::string_view name, const std::vector<std::pair<std::string, std::string>>& assignments)
{
    const EnvironmentInfo* info = findEnvironment(name);
    if (!info) {
        std::string known;
        for (const EnvironmentInfo& e : environments())
            known += (known.empty() ? "" : ", ") + e.name;
        throw std::invalid_argument("unknown environment '" + std::string(name) + "' (known: " + known + ")");
    }
    return info->create(credit::Params::resolve(info->name, info->params, assignments));
}

} // namespace creditlab::env
