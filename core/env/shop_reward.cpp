// WebShop's reward, after princeton-nlp/WebShop web_agent_site/engine/goal.py (get_reward, get_type_reward,
// get_attribute_reward, get_option_reward) and normalize.py (normalize_color). Two stand-ins, both exact for
// this catalog:
// - get_type_reward keeps the nouns of the two product names with spaCy; the generator's product names (types
//   such as "rain jacket", "ground coffee") are compounds of nouns only, so every word of a name is kept.
// - thefuzz's token_set_ratio is computed here from its definition (the rapidfuzz one thefuzz calls).
#include "core/env/shop_reward.h"

#include "core/env/shop_search.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iterator>
#include <set>

namespace creditlab::env::shop {

namespace {

// goal.py: EXACT_MATCH_OPTS = ["size"]
bool exactMatchOption(std::string_view dimension) { return dimension == "size"; }

/// rapidfuzz's fuzz.ratio: 100 * (1 - InDel distance / (|a| + |b|)) = 200 * LCS / (|a| + |b|).
double ratio(std::string_view a, std::string_view b)
{
    if (a.empty() && b.empty())
        return 100.0;
    std::vector<int> row(b.size() + 1, 0);
    for (const char ca : a) {
        int diagonal = 0;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const int up = row[j];
            row[j] = ca == b[j - 1] ? diagonal + 1 : std::max(row[j], row[j - 1]);
            diagonal = up;
        }
    }
    return 200.0 * row[b.size()] / static_cast<double>(a.size() + b.size());
}

std::string join(const std::set<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : " ") + w;
    return out;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

/// WebShop's "look in the title, bullet points and description" fallback, on lower-cased text.
bool inProductText(const Product& p, const std::string& value)
{
    std::string bullets;
    for (const std::string& b : p.bullets)
        bullets += (bullets.empty() ? "" : " ") + b;
    return contains(lower(p.title), value) || contains(lower(bullets), value) || contains(lower(p.description), value);
}

std::vector<std::string> splitCategory(const std::string& category)
{
    // '›' separated levels, each stripped.
    std::vector<std::string> out;
    const std::string sep = "\xE2\x80\xBA";
    std::size_t start = 0;
    while (true) {
        const std::size_t end = category.find(sep, start);
        std::string level = category.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const auto first = level.find_first_not_of(' ');
        const auto last = level.find_last_not_of(' ');
        out.push_back(first == std::string::npos ? std::string() : level.substr(first, last - first + 1));
        if (end == std::string::npos)
            break;
        start = end + sep.size();
    }
    return out;
}

} // namespace

int tokenSetRatio(std::string_view a, std::string_view b)
{
    const std::vector<std::string> wa = SearchIndex::words(a);
    const std::vector<std::string> wb = SearchIndex::words(b);
    if (wa.empty() || wb.empty())
        return 0;
    const std::set<std::string> sa(wa.begin(), wa.end());
    const std::set<std::string> sb(wb.begin(), wb.end());
    std::set<std::string> both, onlyA, onlyB;
    std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(both, both.end()));
    std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(onlyA, onlyA.end()));
    std::set_difference(sb.begin(), sb.end(), sa.begin(), sa.end(), std::inserter(onlyB, onlyB.end()));
    // One token set inside the other: a perfect score.
    if (!both.empty() && (onlyA.empty() || onlyB.empty()))
        return 100;
    const std::string sect = join(both);
    const std::string diffA = join(onlyA);
    const std::string diffB = join(onlyB);
    const std::string combinedA = sect.empty() ? diffA : sect + " " + diffA;
    const std::string combinedB = sect.empty() ? diffB : sect + " " + diffB;
    double best = ratio(combinedA, combinedB);
    if (!sect.empty())
        best = std::max({ best, ratio(sect, combinedA), ratio(sect, combinedB) });
    return static_cast<int>(std::lround(best));
}

std::string normalizeColor(std::string_view value)
{
    // WebShop's normalize.py maps a colour string to the first entry of its colour list that it contains. Its
    // list is not reproduced here (it could not be checked); this one holds the catalog's colours, so the
    // behaviour is the same on every value the catalog produces.
    static const std::array<std::string_view, 16> colors = { "beige", "black", "blue", "brown", "burgundy", "charcoal",
        "coral", "cream", "gold", "green", "grey", "navy", "pink", "purple", "red", "white" };
    for (std::string_view c : colors)
        if (value.find(c) != std::string_view::npos)
            return std::string(c);
    return std::string(value);
}

// get_type_reward
double typeReward(const Product& purchased, const Goal& goal, RewardParts& parts)
{
    parts.queryMatch = purchased.query == goal.query;
    {
        const std::vector<std::string> a = splitCategory(purchased.category);
        const std::vector<std::string> b = splitCategory(goal.category);
        const std::set<std::string> sa(a.begin(), a.end());
        int common = 0;
        for (const std::string& level : std::set<std::string>(b.begin(), b.end()))
            common += sa.count(level) > 0;
        parts.categoryMatch = common >= 2;
    }
    const std::vector<std::string> boughtWords = SearchIndex::words(purchased.name);
    const std::set<std::string> bought(boughtWords.begin(), boughtWords.end());
    const std::vector<std::string> desiredWords = SearchIndex::words(goal.name);
    const std::set<std::string> desired(desiredWords.begin(), desiredWords.end());
    int intersect = 0;
    for (const std::string& w : desired)
        intersect += bought.count(w) > 0;
    // goal.py takes len() of the parsed token list (duplicates included) as the denominator.
    parts.titleScore = desiredWords.empty() ? 0.2 : intersect / static_cast<double>(desiredWords.size());
    parts.rType = 1.0;
    if (!(parts.queryMatch || parts.categoryMatch || parts.titleScore > 0.2))
        parts.rType = 0.5;
    if (parts.titleScore < 0.1)
        parts.rType = 0.1;
    if (parts.titleScore == 0.0)
        parts.rType = 0.0;
    return parts.rType;
}

RewardParts webshopReward(const Product& purchased, const Goal& goal, double price,
    const std::vector<std::pair<std::string, std::string>>& options)
{
    RewardParts r;

    typeReward(purchased, goal, r);

    // get_attribute_reward
    for (const std::string& g : goal.attributes) {
        bool matched = false;
        for (const std::string& p : purchased.attributes)
            if (tokenSetRatio(p, g) > 85) {
                matched = true;
                break;
            }
        if (!matched && inProductText(purchased, g))
            matched = true;
        r.attributeMatches += matched;
    }
    r.rAtt = goal.attributes.empty() ? 0.0 : r.attributeMatches / static_cast<double>(goal.attributes.size());

    // get_option_reward: every purchased option against every goal option (colours normalised)
    std::vector<std::string> goalValues;
    for (const auto& [dimension, value] : goal.options)
        goalValues.push_back(normalizeColor(value));
    for (const auto& [dimension, rawValue] : options) {
        const std::string value = normalizeColor(rawValue);
        bool matched = false;
        if (exactMatchOption(lower(dimension))) {
            matched = std::find(goalValues.begin(), goalValues.end(), value) != goalValues.end();
        } else {
            for (const std::string& g : goalValues)
                if (tokenSetRatio(g, value) > 85) {
                    matched = true;
                    break;
                }
        }
        if (!matched && inProductText(purchased, value))
            matched = true;
        r.optionMatches += matched;
    }
    if (!goalValues.empty())
        r.rOption = r.optionMatches / static_cast<double>(goalValues.size());

    // get_reward
    const bool priceOk = goal.priceUpper > 0 && price <= goal.priceUpper;
    if (goal.priceUpper > 0)
        r.rPrice = priceOk ? 1.0 : 0.0;
    const double denominator = static_cast<double>(goal.attributes.size() + goal.options.size() + 1);
    r.total = (r.attributeMatches + r.optionMatches + (priceOk ? 1.0 : 0.0)) / denominator * r.rType;
    return r;
}

} // namespace creditlab::env::shop
