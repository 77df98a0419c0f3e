#pragma once

// The `shop` catalog: products generated from a seed (WebShop's product fields: asin, title, name, query,
// product_category, attributes, bullet points, description, options, price), the natural-language goals drawn
// from them, and the catalog's full-text search engine. Internal to core/env.

#include "core/env/environment.h"
#include "core/env/shop_search.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace creditlab::env::shop {

/// One option dimension of a product ("size", "color", "flavor name", ...) and the values it offers.
struct OptionDim {
    std::string name;
    std::vector<std::string> values;
};

/// A product, with WebShop's fields. Everything is lower case except the title and the asin.
struct Product {
    std::string asin; ///< "B0" + 8 characters, unique in the catalog
    std::string title;
    std::string name; ///< the product type ("rain jacket"): the `name` WebShop's type reward compares
    std::string query; ///< the search query the product was listed under (WebShop's `query`)
    std::string category; ///< breadcrumb "clothing, shoes & jewelry › men › jackets" (WebShop's product_category)
    std::vector<std::string> attributes;
    std::vector<std::string> bullets;
    std::string description;
    std::vector<OptionDim> options;
    double price = 0.0;
    int type = 0; ///< index of the product type in the generator's table
    Split split = Split::Train;
};

/// A goal (WebShop's synthetic goal): the target product's type fields, a subset of its attributes, one value
/// per option dimension, and a price limit.
struct Goal {
    int target = -1; ///< index of the product the goal was drawn from
    std::string instruction; ///< "i need a hooded and lightweight rain jacket with size: large, and color: ..."
    std::string name;
    std::string query;
    std::string category;
    std::vector<std::string> attributes;
    std::vector<std::pair<std::string, std::string>> options; ///< (dimension, value), in the product's order
    double priceUpper = 1000000.0; ///< WebShop's price_upper; 1000000 when the instruction names no limit

    /// "rain jacket/hooded,lightweight/B0XXXXXXXX": decides the split.
    std::string spec() const;
    /// The expert's query: the goal's words (attributes, then the type).
    std::string expertQuery() const;
};

/// A generated catalog with its search index. Immutable after construction, so one instance is shared
/// read-only by every environment of the same (seed, size) on any thread (the index serialises its queries).
class Catalog {
public:
    /// Generates `size` products from `seed` and indexes them. Takes milliseconds per thousand products.
    Catalog(std::uint64_t seed, int size);

    /// The catalog of (seed, size), built on first use and shared while anyone holds it. Any thread.
    static std::shared_ptr<const Catalog> shared(std::uint64_t seed, int size);

    std::uint64_t seed() const { return m_seed; }
    const std::vector<Product>& products() const { return m_products; }
    const Product& product(int index) const { return m_products[static_cast<std::size_t>(index)]; }
    /// Indices of the products of one split (about 80% train, 20% eval).
    const std::vector<int>& splitProducts(Split split) const { return split == Split::Train ? m_train : m_eval; }
    /// BM25-ranked product indices for `query` (see SearchIndex::search), remembered per (words, limit): the
    /// same query always gives the same answer from an immutable index. Any thread.
    std::vector<int> search(std::string_view query, int limit = kMaxResults) const;
    const SearchIndex& index() const { return *m_index; }

    /// Draws the goal of episode `seed` in `split`: a product of the split, an attribute set whose split is the
    /// same, options and a price limit, such that the expert's query finds a product earning reward 1 among its
    /// results (goals the expert cannot solve are never produced). Deterministic. Any thread.
    Goal drawGoal(std::uint64_t seed, Split split) const;

    /// WebShop lists at most 50 results, 10 per page.
    static constexpr int kMaxResults = 50;
    static constexpr int kPageSize = 10;

private:
    std::uint64_t m_seed;
    std::vector<Product> m_products;
    std::vector<int> m_train;
    std::vector<int> m_eval;
    std::unique_ptr<SearchIndex> m_index;
    // A few thousand distinct queries cover the instructions' words; free text from a person or a model may add
    // many more.
    mutable QueryCache m_cache { 100000 };
};

/// The split an attribute set of a product type belongs to (about one in five is eval).
Split attributeSetSplit(const std::string& name, std::vector<std::string> attributes);

/// The options the expert would select on `product` for `goal`: the goal's value where the product offers it,
/// else the dimension's first value.
std::vector<std::pair<std::string, std::string>> bestOptions(const Product& product, const Goal& goal);

} // namespace creditlab::env::shop
