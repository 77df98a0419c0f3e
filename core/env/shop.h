#pragma once

// `shop`: a web shop in the style of WebShop (Yao et al. 2022): a catalog generated from a seed, instructions
// naming attributes, options and a price limit, a BM25 search engine (SQLite FTS5), results pages of ten, item
// pages with options and a description, and WebShop's reward on `click[buy now]`. Like `household` it exposes
// what the simulator knows: validity, a progress potential, information gain, a canonical state key and an
// oracle role per step (the rules are in shop.cpp).

#include "core/env/environment.h"
#include "core/env/shop_catalog.h"
#include "core/env/shop_reward.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace creditlab::env::shop {

/// The page the agent is on.
enum class Page : std::uint8_t { Search, Results, Item, Description, Done };

/// The shop environment. One instance per thread; instances of the same catalog (seed, size) share it read-only.
/// Actions: `search[query]` on the search page; `click[...]` on `back to search`, `next >`, `< prev`, a result's
/// asin or title, an option value, `description` and `buy now`. Anything else answers "Nothing happens.".
/// A purchase ends the episode: StepResult::reward is WebShop's score in [0, 1] (not only 0 or 1), and success
/// means a score of 1, as WebShop's success rate counts it.
class ShopEnv final : public Environment {
public:
    static constexpr std::size_t kDefaultCatalogSize = 3000;
    /// `max_steps` (default 15), `catalog_size` (default 3000 products), `catalog_seed` (default 0).
    static std::vector<credit::ParamSpec> paramSpecs();
    /// Builds or joins the shared catalog of (catalog_seed, catalog_size).
    explicit ShopEnv(const credit::Params& params);
    /// The defaults.
    ShopEnv();

    std::string_view name() const override { return "shop"; }
    const std::string& reset(std::uint64_t seed, Split split) override;
    const StepResult& step(std::string_view action) override;
    const std::vector<std::string>& admissibleCommands() const override;
    const std::string& goal() const override { return m_goal.instruction; }
    const std::string& initialObservation() const override { return m_initial; }
    /// "shop:seed=17", "shop:seed=17:split=eval", with ":catalog=<seed>/<size>" for a catalog not the default.
    std::string taskKey() const override;
    std::string taskSpec() const override { return m_goal.spec(); }
    std::string stateKey() const override;
    double progress() const override { return m_progress; }
    bool done() const override { return m_done; }
    int stepCount() const override { return m_steps; }
    int maxSteps() const override { return m_maxSteps; }
    bool expertAction(std::string& out) const override;
    /// The expert limited to what the agent has read (see shop_pages.cpp): it judges results by their titles
    /// and prices, items by their options and, where the title does not settle it, their description.
    bool searchExpertAction(std::string& out) const override;

    /// The catalog, the goal, the page and, after a purchase, the reward's parts: for tests and tools.
    const Catalog& catalog() const { return *m_catalog; }
    const Goal& goalSpec() const { return m_goal; }
    Page page() const { return m_page; }
    /// The current results (product indices, best first) and the result page shown (0-based).
    const std::vector<int>& results() const { return m_results; }
    int resultPage() const { return m_pageNo; }
    /// The product shown on an item or description page, or the one bought; -1 otherwise.
    int item() const { return m_item; }
    const RewardParts& purchase() const { return m_purchase; }
    /// Whether buying `product` with the best options earns reward 1 for the current goal.
    bool perfect(int product) const;

private:
    bool execute(std::string_view action);
    void render(std::string& out) const;
    /// The empty search page: no query, results, item or selected options.
    void toSearchPage();
    double potential() const;
    double listPotential() const;
    std::vector<std::pair<std::string, std::string>> selectedOptions() const;
    std::uint64_t knowledgeKey() const;
    static std::uint64_t knowledgeHash(std::string_view kind, std::string_view text);
    /// Whether the agent has seen the page of `kind` ("results<page>", "item", "description") for `text`.
    bool seen(std::string_view kind, std::string_view text) const;
    /// For the searching expert: the product's type and price fit the instruction, read from its listing.
    bool listingFits(const Product& product) const;
    /// How many of the instruction's attributes the product's title names; with the description once read.
    int attributesShown(const Product& product, bool withDescription) const;

    std::shared_ptr<const Catalog> m_catalog;
    int m_maxSteps = 15;
    Goal m_goal;
    std::uint64_t m_seed = 0;
    Split m_split = Split::Train;
    bool m_ready = false;
    bool m_done = false;
    int m_steps = 0;
    double m_progress = 0.0;
    Page m_page = Page::Search;
    std::string m_query; ///< the current query's words joined by spaces
    std::vector<int> m_results;
    int m_pageNo = 0;
    int m_item = -1;
    std::vector<std::string> m_selected; ///< per option dimension of the item; empty while none is chosen
    bool m_bought = false;
    RewardParts m_purchase;
    std::string m_initial;
    StepResult m_result;
    std::vector<std::uint64_t> m_states; ///< state-key hashes met this episode (initial included)
    std::vector<std::uint64_t> m_pairs; ///< (state, action) hashes of valid steps this episode
    std::vector<std::uint64_t> m_known; ///< pages the agent has seen: (query, page), items, descriptions
    mutable std::vector<std::int8_t> m_perfect; ///< per product: -1 unknown, 0 or 1
    mutable std::vector<std::string> m_admissible;
    mutable bool m_admissibleStale = true;
};

} // namespace creditlab::env::shop
