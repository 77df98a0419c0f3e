// The shop's rules: parsing and executing actions, the progress potential, the canonical state key and the
// oracle. Pages are rendered, commands listed and the expert planned in shop_pages.cpp.
//
// Progress potential (phi in [0, 1], 1 exactly on a perfect purchase). A product is "perfect" when buying it
// with the goal's options earns WebShop's reward 1.
//   search page                                  0
//   results page, or an item that is not perfect 0.2 * [the current results hold a perfect product]
//                                                + 0.1 * [one of them is on the page shown]
//   item or description page of a perfect item   0.5 + 0.4 * (goal options selected) / (option dimensions)
//   after a purchase                             the reward
//
// Canonical state key: "page=<search|results|item|description|done>|query=<words>|p=<result page>|
// item=<asin or ->|opts=<dimension:value,...>".
//
// Oracle roles (TRIAGE's taxonomy with household_oracle.cpp's rules, plus two for the shop), first that applies:
//   R  the action is invalid ("Nothing happens." above the unchanged page);
//   D  a purchase of reward 1; R a purchase below 1 (the episode ends short of the goal);
//   R  the same action from the same state again, gaining nothing (a repeated identical search after backing
//      out): the progress it may regain was earned once already;
//   D  progress rises (a query whose results hold a perfect product, paging to it, opening it, choosing a
//      required option);
//   R  progress falls (leaving such results, choosing a wrong option value);
//   E  first sight of a results page, an item or a description without progress;
//   R  a return to a state met earlier, gaining nothing (item -> < prev, description -> < prev);
//   N  otherwise.
#include "core/env/shop.h"

#include "core/env/household_rules.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace creditlab::env::shop {

namespace {

std::uint64_t hashText(std::string_view text, std::uint64_t h = 0xcbf29ce484222325ull)
{
    for (const char c : text)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return h;
}

bool contains(const std::vector<std::uint64_t>& v, std::uint64_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::string lowerTrimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    std::string out(text.substr(first, last - first + 1));
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string joinWords(const std::vector<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : " ") + w;
    return out;
}

} // namespace

std::vector<credit::ParamSpec> ShopEnv::paramSpecs()
{
    using credit::ParamType;
    return {
        { "max_steps", ParamType::Int, "15", 1, 100000, {}, "step limit of an episode (WebShop agents get 15)" },
        { "catalog_size", ParamType::Int, std::to_string(kDefaultCatalogSize), 50, 1000000, {},
            "products in the generated catalog" },
        { "catalog_seed", ParamType::Int, "0", 0, 2147483647, {}, "seed of the generated catalog" },
    };
}

ShopEnv::ShopEnv()
    : ShopEnv(credit::Params::resolve("shop", paramSpecs(), {}))
{
}

ShopEnv::ShopEnv(const credit::Params& params)
    : m_catalog(Catalog::shared(
        static_cast<std::uint64_t>(params.getInt("catalog_seed")), static_cast<int>(params.getInt("catalog_size"))))
    , m_maxSteps(static_cast<int>(params.getInt("max_steps")))
{
    if (m_catalog->splitProducts(Split::Train).empty() || m_catalog->splitProducts(Split::Eval).empty())
        throw credit::ParamError("shop: the catalog is too small to hold both splits");
}

void ShopEnv::toSearchPage()
{
    m_page = Page::Search;
    m_query.clear();
    m_results.clear();
    m_pageNo = 0;
    m_item = -1;
    m_selected.clear();
}

const std::string& ShopEnv::reset(std::uint64_t seed, Split split)
{
    m_goal = m_catalog->drawGoal(seed, split);
    m_seed = seed;
    m_split = split;
    m_ready = true;
    m_done = false;
    m_steps = 0;
    toSearchPage();
    m_bought = false;
    m_purchase = RewardParts {};
    m_perfect.assign(m_catalog->products().size(), -1);
    m_progress = potential();
    m_states.assign(1, hashText(stateKey()));
    m_pairs.clear();
    m_known.clear();
    m_admissibleStale = true;
    m_result = StepResult {};
    m_result.info.progress = m_progress;
    m_result.info.stateAfter = stateKey();
    render(m_initial);
    return m_initial;
}

bool ShopEnv::perfect(int product) const
{
    std::int8_t& cached = m_perfect[static_cast<std::size_t>(product)];
    if (cached < 0) {
        const Product& p = m_catalog->product(product);
        // Reward 1 needs r_type = 1 and the price term: cheap tests that rule out most results first.
        RewardParts parts;
        if ((m_goal.priceUpper > 0 && p.price > m_goal.priceUpper) || typeReward(p, m_goal, parts) < 1.0) {
            cached = 0;
            return false;
        }
        cached = webshopReward(p, m_goal, p.price, bestOptions(p, m_goal)).total >= 1.0 - 1e-9;
    }
    return cached == 1;
}

std::vector<std::pair<std::string, std::string>> ShopEnv::selectedOptions() const
{
    std::vector<std::pair<std::string, std::string>> out;
    if (m_item < 0)
        return out;
    const Product& p = m_catalog->product(m_item);
    for (std::size_t d = 0; d < p.options.size(); ++d)
        if (!m_selected[d].empty())
            out.emplace_back(p.options[d].name, m_selected[d]);
    return out;
}

bool ShopEnv::execute(std::string_view action)
{
    const std::string text = lowerTrimmed(action);
    if (text.size() < 3 || text.back() != ']')
        return false;
    const auto open = text.find('[');
    if (open == std::string::npos)
        return false;
    const std::string verb = lowerTrimmed(std::string_view(text).substr(0, open));
    const std::string arg = lowerTrimmed(std::string_view(text).substr(open + 1, text.size() - open - 2));

    if (verb == "search") {
        const std::string query = joinWords(SearchIndex::words(arg));
        if (m_page != Page::Search || query.empty())
            return false;
        m_query = query;
        m_results = m_catalog->search(m_query);
        m_pageNo = 0;
        m_page = Page::Results;
        return true;
    }
    if (verb != "click" || m_page == Page::Search || m_page == Page::Done)
        return false;
    if (arg == "back to search") {
        toSearchPage();
        return true;
    }
    if (m_page == Page::Results) {
        const int pages = (static_cast<int>(m_results.size()) + Catalog::kPageSize - 1) / Catalog::kPageSize;
        if (arg == "next >" && m_pageNo + 1 < pages) {
            ++m_pageNo;
            return true;
        }
        if (arg == "< prev" && m_pageNo > 0) {
            --m_pageNo;
            return true;
        }
        const std::size_t first = static_cast<std::size_t>(m_pageNo * Catalog::kPageSize);
        const std::size_t last = std::min(m_results.size(), first + Catalog::kPageSize);
        for (std::size_t i = first; i < last; ++i) {
            const Product& p = m_catalog->product(m_results[i]);
            if (arg == lowerTrimmed(p.asin) || arg == lowerTrimmed(p.title)) {
                m_item = m_results[i];
                m_selected.assign(p.options.size(), std::string());
                m_page = Page::Item;
                return true;
            }
        }
        return false;
    }
    if (m_page == Page::Description) {
        if (arg != "< prev")
            return false;
        m_page = Page::Item;
        return true;
    }
    // The item page.
    if (arg == "< prev") {
        m_page = Page::Results;
        m_item = -1;
        m_selected.clear();
        return true;
    }
    if (arg == "description") {
        m_page = Page::Description;
        return true;
    }
    const Product& p = m_catalog->product(m_item);
    if (arg == "buy now") {
        m_purchase = webshopReward(p, m_goal, p.price, selectedOptions());
        m_bought = true;
        m_page = Page::Done;
        return true;
    }
    for (std::size_t d = 0; d < p.options.size(); ++d)
        for (const std::string& v : p.options[d].values)
            if (arg == v) {
                m_selected[d] = v;
                return true;
            }
    return false;
}

double ShopEnv::listPotential() const
{
    const auto it = std::find_if(m_results.begin(), m_results.end(), [this](int r) { return perfect(r); });
    if (it == m_results.end())
        return 0.0;
    const auto index = static_cast<int>(it - m_results.begin());
    bool shown = false;
    for (int i = m_pageNo * Catalog::kPageSize;
         i < std::min(static_cast<int>(m_results.size()), (m_pageNo + 1) * Catalog::kPageSize); ++i)
        shown = shown || (i >= index && perfect(m_results[static_cast<std::size_t>(i)]));
    return 0.2 + (shown ? 0.1 : 0.0);
}

double ShopEnv::potential() const
{
    switch (m_page) {
    case Page::Search:
        return 0.0;
    case Page::Results:
        return listPotential();
    case Page::Item:
    case Page::Description: {
        if (!perfect(m_item))
            return listPotential();
        const Product& p = m_catalog->product(m_item);
        if (p.options.empty())
            return 0.9;
        // The options that make it perfect: the goal's where offered (bestOptions).
        const auto best = bestOptions(p, m_goal);
        int correct = 0;
        for (std::size_t d = 0; d < p.options.size(); ++d)
            correct += m_selected[d] == best[d].second;
        return 0.5 + 0.4 * correct / static_cast<double>(p.options.size());
    }
    case Page::Done:
        return m_purchase.total;
    }
    return 0.0;
}

std::uint64_t ShopEnv::knowledgeHash(std::string_view kind, std::string_view text)
{
    return hashText(text, hashText(kind));
}

bool ShopEnv::seen(std::string_view kind, std::string_view text) const
{
    return contains(m_known, knowledgeHash(kind, text));
}

std::uint64_t ShopEnv::knowledgeKey() const
{
    switch (m_page) {
    case Page::Results:
        return knowledgeHash("results" + std::to_string(m_pageNo), m_query);
    case Page::Item:
        return knowledgeHash("item", m_catalog->product(m_item).asin);
    case Page::Description:
        return knowledgeHash("description", m_catalog->product(m_item).asin);
    default:
        return 0;
    }
}

const StepResult& ShopEnv::step(std::string_view action)
{
    if (!m_ready)
        throw std::logic_error("shop: step() before reset()");
    if (m_done)
        throw std::logic_error("shop: step() after the episode ended");
    StepInfo& info = m_result.info;
    info.stateBefore.swap(info.stateAfter);
    info.progressBefore = m_progress;
    const std::uint64_t before = m_states.back();

    const bool valid = execute(action);
    ++m_steps;
    m_admissibleStale = true;
    // An invalid action leaves the page as it was and shows it again (as WebShop does), after a line saying so: an
    // agent keeps what it needs (the item ids of a results page) after a typo.
    render(m_result.feedback);
    if (!valid)
        m_result.feedback.insert(0, "Nothing happens.\n");

    const std::uint64_t known = valid ? knowledgeKey() : 0;
    info.gainedInformation = known != 0 && !contains(m_known, known);
    if (info.gainedInformation)
        m_known.push_back(known);

    info.stateAfter = stateKey();
    const std::uint64_t after = valid ? hashText(info.stateAfter) : before;
    const std::uint64_t pair = hashText(lowerTrimmed(action), before ^ 0x9E3779B97F4A7C15ull);
    const bool repeatedAction = valid && !info.gainedInformation && contains(m_pairs, pair);
    const bool returned = valid && !info.gainedInformation && after != before && contains(m_states, after);
    if (valid) {
        m_pairs.push_back(pair);
        m_states.push_back(after);
    }

    m_progress = potential();
    m_result.success = m_bought && m_purchase.total >= 1.0 - 1e-9;
    m_result.reward = m_bought ? m_purchase.total : 0.0;
    m_done = m_bought || m_steps >= m_maxSteps;
    m_result.done = m_done;
    info.valid = valid;
    info.progress = m_progress;
    if (valid && m_bought)
        info.role = m_result.success ? Role::D : Role::R;
    else if (repeatedAction)
        info.role = Role::R;
    else
        info.role = household::oracleRole(valid, info.progressBefore, m_progress, info.gainedInformation, returned);
    return m_result;
}

std::string ShopEnv::taskKey() const
{
    std::string key = "shop:seed=" + std::to_string(m_seed);
    if (m_split == Split::Eval)
        key += ":split=eval";
    // Another catalog is another task space: name it unless it is the default one.
    if (m_catalog->seed() != 0 || m_catalog->products().size() != kDefaultCatalogSize)
        key += ":catalog=" + std::to_string(m_catalog->seed()) + "/" + std::to_string(m_catalog->products().size());
    return key;
}

std::string ShopEnv::stateKey() const
{
    static const char* names[] = { "search", "results", "item", "description", "done" };
    std::string key = std::string("page=") + names[static_cast<int>(m_page)] + "|query=" + m_query
        + "|p=" + std::to_string(m_pageNo) + "|item=" + (m_item < 0 ? "-" : m_catalog->product(m_item).asin) + "|opts=";
    const auto selected = selectedOptions();
    if (selected.empty())
        key += "-";
    for (std::size_t i = 0; i < selected.size(); ++i)
        key += (i ? "," : "") + selected[i].first + ":" + selected[i].second;
    return key;
}

} // namespace creditlab::env::shop
