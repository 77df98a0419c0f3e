// The shop's pages as text (WebShop's text observation, one element a line, buttons in brackets), its
// admissible commands and its expert.
#include "core/env/shop.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace creditlab::env::shop {

namespace {

std::string money(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "$%.2f", value);
    return buffer;
}

} // namespace

void ShopEnv::render(std::string& out) const
{
    out.assign("Instruction: ").append(m_goal.instruction).append("\n");
    switch (m_page) {
    case Page::Search:
        out.append("[Search]");
        return;
    case Page::Results: {
        const int total = static_cast<int>(m_results.size());
        out.append("[Back to Search]\nPage ")
            .append(std::to_string(m_pageNo + 1))
            .append(" (Total results: ")
            .append(std::to_string(total))
            .append(")");
        if (m_pageNo > 0)
            out.append("\n[< Prev]");
        if ((m_pageNo + 1) * Catalog::kPageSize < total)
            out.append("\n[Next >]");
        for (int i = m_pageNo * Catalog::kPageSize; i < std::min(total, (m_pageNo + 1) * Catalog::kPageSize); ++i) {
            const Product& p = m_catalog->product(m_results[static_cast<std::size_t>(i)]);
            out.append("\n[").append(p.asin).append("]\n").append(p.title).append("\n").append(money(p.price));
        }
        return;
    }
    case Page::Item: {
        const Product& p = m_catalog->product(m_item);
        out.append("[Back to Search]\n[< Prev]");
        for (std::size_t d = 0; d < p.options.size(); ++d) {
            out.append("\n").append(p.options[d].name);
            if (!m_selected[d].empty())
                out.append(" (selected: ").append(m_selected[d]).append(")");
            out.append(":");
            for (const std::string& v : p.options[d].values)
                out.append(" [").append(v).append("]");
        }
        out.append("\n").append(p.title).append("\nPrice: ").append(money(p.price));
        out.append("\nRating: N.A.\n[Description]\n[Buy Now]");
        return;
    }
    case Page::Description: {
        const Product& p = m_catalog->product(m_item);
        out.append("[Back to Search]\n[< Prev]\n").append(p.description).append("\nFeatures:");
        for (const std::string& b : p.bullets)
            out.append("\n- ").append(b);
        return;
    }
    case Page::Done: {
        char buffer[96];
        std::snprintf(buffer, sizeof buffer, "Your score (min 0.0, max 1.0): %.3f", m_purchase.total);
        out.assign("Thank you for shopping with us!\n").append(buffer);
        return;
    }
    }
}

const std::vector<std::string>& ShopEnv::admissibleCommands() const
{
    if (!m_admissibleStale)
        return m_admissible;
    m_admissibleStale = false;
    m_admissible.clear();
    if (m_done || !m_ready)
        return m_admissible;
    switch (m_page) {
    case Page::Search:
        // Any query is valid; these three are built from the instruction's own words.
        m_admissible.push_back("search[" + m_goal.expertQuery() + "]");
        m_admissible.push_back("search[" + m_goal.name + "]");
        m_admissible.push_back("search[" + m_goal.attributes.front() + " " + m_goal.name + "]");
        break;
    case Page::Results: {
        const int total = static_cast<int>(m_results.size());
        m_admissible.emplace_back("click[back to search]");
        if (m_pageNo > 0)
            m_admissible.emplace_back("click[< prev]");
        if ((m_pageNo + 1) * Catalog::kPageSize < total)
            m_admissible.emplace_back("click[next >]");
        for (int i = m_pageNo * Catalog::kPageSize; i < std::min(total, (m_pageNo + 1) * Catalog::kPageSize); ++i)
            m_admissible.push_back("click[" + m_catalog->product(m_results[static_cast<std::size_t>(i)]).asin + "]");
        break;
    }
    case Page::Item: {
        m_admissible.emplace_back("click[back to search]");
        m_admissible.emplace_back("click[< prev]");
        for (const OptionDim& d : m_catalog->product(m_item).options)
            for (const std::string& v : d.values)
                m_admissible.push_back("click[" + v + "]");
        m_admissible.emplace_back("click[description]");
        m_admissible.emplace_back("click[buy now]");
        break;
    }
    case Page::Description:
        m_admissible.emplace_back("click[back to search]");
        m_admissible.emplace_back("click[< prev]");
        break;
    case Page::Done:
        break;
    }
    return m_admissible;
}

// The expert knows the goal and every product: it searches with the goal's words, pages to the best-ranked
// product that earns reward 1, opens it, selects the goal's options and buys. From any other state it walks
// back: to the results when an item is not perfect, to the search page when the results hold nothing perfect.
bool ShopEnv::expertAction(std::string& out) const
{
    out.clear();
    if (!m_ready || m_done)
        return false;
    switch (m_page) {
    case Page::Search:
        out = "search[" + m_goal.expertQuery() + "]";
        return true;
    case Page::Results: {
        const auto it = std::find_if(m_results.begin(), m_results.end(), [this](int r) { return perfect(r); });
        if (it == m_results.end()) {
            out = "click[back to search]";
            return true;
        }
        const int page = static_cast<int>(it - m_results.begin()) / Catalog::kPageSize;
        out = page == m_pageNo ? "click[" + m_catalog->product(*it).asin + "]"
            : page > m_pageNo  ? "click[next >]"
                               : "click[< prev]";
        return true;
    }
    case Page::Item: {
        if (!perfect(m_item)) {
            out = "click[< prev]";
            return true;
        }
        const Product& p = m_catalog->product(m_item);
        const auto best = bestOptions(p, m_goal);
        for (std::size_t d = 0; d < p.options.size(); ++d)
            if (m_selected[d] != best[d].second) {
                out = "click[" + best[d].second + "]";
                return true;
            }
        out = "click[buy now]";
        return true;
    }
    case Page::Description:
        out = "click[< prev]";
        return true;
    case Page::Done:
        return false;
    }
    return false;
}

bool ShopEnv::listingFits(const Product& product) const
{
    std::string title = product.title;
    for (char& c : title)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return title.find(m_goal.name) != std::string::npos
        && (m_goal.priceUpper <= 0 || product.price <= m_goal.priceUpper);
}

int ShopEnv::attributesShown(const Product& product, bool withDescription) const
{
    std::string text = product.title;
    if (withDescription)
        for (const std::string& b : product.bullets)
            text += " " + b;
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    int shown = 0;
    for (const std::string& a : m_goal.attributes)
        shown += text.find(a) != std::string::npos;
    return shown;
}

// The searching expert reads like a careful shopper: it searches with the instruction's words; on a results page
// it opens the unvisited listing whose title names the product type within the price limit and the most of the
// instruction's attributes (pages on, or searches the type alone, when none fits); on an item it goes back when
// an instruction's option is not offered, reads the description when the title does not show every attribute,
// and otherwise selects the instruction's options and buys. Whatever it buys earns reward 1; it can run out of
// steps on goals whose products hide their attributes in descriptions.
bool ShopEnv::searchExpertAction(std::string& out) const
{
    out.clear();
    if (!m_ready || m_done)
        return false;
    switch (m_page) {
    case Page::Search: {
        const std::string first = SearchIndex::joinedWords(m_goal.expertQuery());
        out = "search[" + (seen("results0", first) ? m_goal.name : m_goal.expertQuery()) + "]";
        return true;
    }
    case Page::Results: {
        const int total = static_cast<int>(m_results.size());
        int best = -1, bestShown = -1;
        for (int i = m_pageNo * Catalog::kPageSize; i < std::min(total, (m_pageNo + 1) * Catalog::kPageSize); ++i) {
            const Product& p = m_catalog->product(m_results[static_cast<std::size_t>(i)]);
            if (seen("item", p.asin) || !listingFits(p))
                continue;
            const int shown = attributesShown(p, false);
            if (shown > bestShown) {
                best = m_results[static_cast<std::size_t>(i)];
                bestShown = shown;
            }
        }
        if (best >= 0)
            out = "click[" + m_catalog->product(best).asin + "]";
        else if ((m_pageNo + 1) * Catalog::kPageSize < total)
            out = "click[next >]";
        else
            out = "click[back to search]";
        return true;
    }
    case Page::Item: {
        const Product& p = m_catalog->product(m_item);
        bool offered = listingFits(p);
        for (const auto& [dimension, value] : m_goal.options) {
            bool found = false;
            for (const OptionDim& d : p.options)
                found = found
                    || (d.name == dimension && std::find(d.values.begin(), d.values.end(), value) != d.values.end());
            offered = offered && found;
        }
        const int wanted = static_cast<int>(m_goal.attributes.size());
        const bool described = seen("description", p.asin);
        if (!offered || (described && attributesShown(p, true) < wanted)) {
            out = "click[< prev]";
            return true;
        }
        if (!described && attributesShown(p, false) < wanted) {
            out = "click[description]";
            return true;
        }
        for (std::size_t d = 0; d < p.options.size(); ++d)
            for (const auto& [dimension, value] : m_goal.options)
                if (dimension == p.options[d].name && m_selected[d] != value) {
                    out = "click[" + value + "]";
                    return true;
                }
        out = "click[buy now]";
        return true;
    }
    case Page::Description:
        out = "click[< prev]";
        return true;
    case Page::Done:
        return false;
    }
    return false;
}

} // namespace creditlab::env::shop
