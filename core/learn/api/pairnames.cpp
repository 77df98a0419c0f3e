// The names of PAIR's feature types and probes (pairfeatures.h, probepipeline.h), torch-free: experiment files name
// probes in their claims, and the sweep parser (creditlab_learn_api) checks them.
#include "core/learn/torch/pair/pairfeatures.h"
#include "core/learn/torch/pair/probepipeline.h"

#include <stdexcept>
#include <utility>

namespace creditlab::learn {

namespace {

const std::vector<std::pair<PairFeatureType, const char*>>& featureNames()
{
    static const std::vector<std::pair<PairFeatureType, const char*>> names {
        { PairFeatureType::LastToken, "last_token" },
        { PairFeatureType::MeanPooled, "mean_pooled" },
        { PairFeatureType::MultiLayer, "multi_layer" },
        { PairFeatureType::Attention, "attention" },
        { PairFeatureType::HiddenAttention, "hidden_attention" },
        { PairFeatureType::MultiAttention, "multi_attention" },
        { PairFeatureType::Lookback, "lookback" },
    };
    return names;
}

} // namespace

const char* pairFeatureTypeName(PairFeatureType type)
{
    for (const auto& [t, name] : featureNames())
        if (t == type)
            return name;
    return "?";
}

PairFeatureType pairFeatureTypeFromName(const std::string& name)
{
    for (const auto& [t, n] : featureNames())
        if (name == n)
            return t;
    throw std::invalid_argument("unknown PAIR feature type '" + name + "'");
}

std::vector<PairFeatureType> allPairFeatureTypes()
{
    std::vector<PairFeatureType> types;
    for (const auto& entry : featureNames())
        types.push_back(entry.first);
    return types;
}

std::vector<std::string> probeNames()
{
    std::vector<std::string> names;
    for (const auto type : allPairFeatureTypes())
        names.emplace_back(pairFeatureTypeName(type));
    names.emplace_back("pair");
    names.emplace_back("layerwise");
    return names;
}

} // namespace creditlab::learn
