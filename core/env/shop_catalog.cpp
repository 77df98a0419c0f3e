#include "core/env/shop_catalog.h"
#include "core/env/splitmix.h"

#include "core/env/shop_reward.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

namespace creditlab::env::shop {

namespace {

using Rng = SplitMix64;

std::uint64_t hashText(std::string_view text, std::uint64_t h = 0xcbf29ce484222325ull)
{
    for (const char c : text)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return h;
}

struct DimDef {
    const char* name;
    std::vector<const char*> values;
};

struct TypeDef {
    const char* category;
    const char* name;
    double priceLow, priceHigh;
    std::vector<const char*> attributes;
    std::vector<DimDef> dims;
};

const std::vector<const char*> kColors
    = { "black", "white", "grey", "navy", "red", "blue", "green", "beige", "brown", "pink", "purple", "burgundy" };
const std::vector<const char*> kClothingSizes = { "x-small", "small", "medium", "large", "x-large", "xx-large" };

#define CL_SHOP_SEP " \xE2\x80\xBA "

// Five WebShop categories (fashion, makeup/beauty, grocery, electronics, furniture), 25 product types. Type
// names are nouns only (the reward's noun filter relies on it); no attribute is a word-subset of another of
// its type, and no option value appears in an attribute, so the fuzzy matches stay meaningful.
const std::vector<TypeDef>& typeTable()
{
    static const std::vector<TypeDef> table = {
        { "clothing, shoes & jewelry" CL_SHOP_SEP "women" CL_SHOP_SEP "clothing" CL_SHOP_SEP "dresses", "dress", 19, 79,
            { "machine wash", "floral print", "v neck", "short sleeve", "elastic waist", "side pockets" },
            { { "size", kClothingSizes }, { "color", kColors } } },
        { "clothing, shoes & jewelry" CL_SHOP_SEP "men" CL_SHOP_SEP "clothing" CL_SHOP_SEP "jackets & coats",
            "rain jacket", 29, 149,
            { "water resistant", "hooded", "zip closure", "packable", "windproof", "fleece lined" },
            { { "size", kClothingSizes }, { "color", kColors } } },
        { "clothing, shoes & jewelry" CL_SHOP_SEP "men" CL_SHOP_SEP "shoes" CL_SHOP_SEP "sneakers", "running shoes", 35,
            139, { "rubber sole", "breathable mesh", "lace up", "non slip", "memory foam", "arch support" },
            { { "size", { "7", "8", "9", "10", "11", "12", "13" } }, { "color", kColors } } },
        { "clothing, shoes & jewelry" CL_SHOP_SEP "women" CL_SHOP_SEP "handbags" CL_SHOP_SEP "totes", "tote bag", 15,
            89, { "vegan leather", "zipper pocket", "large capacity", "shoulder strap", "laptop compartment" },
            { { "color", kColors } } },
        { "clothing, shoes & jewelry" CL_SHOP_SEP "men" CL_SHOP_SEP "clothing" CL_SHOP_SEP "shirts", "polo shirt", 14,
            59, { "cotton", "regular fit", "button closure", "moisture wicking", "tumble dry", "wrinkle free" },
            { { "size", kClothingSizes }, { "color", kColors } } },
        { "clothing, shoes & jewelry" CL_SHOP_SEP "women" CL_SHOP_SEP "clothing" CL_SHOP_SEP "leggings",
            "yoga leggings", 12, 49,
            { "high waist", "tummy control", "four way stretch", "squat proof", "quick drying" },
            { { "size", kClothingSizes }, { "color", kColors } } },
        { "beauty & personal care" CL_SHOP_SEP "skin care" CL_SHOP_SEP "face" CL_SHOP_SEP "moisturizers",
            "face moisturizer", 8, 64,
            { "hyaluronic acid", "fragrance free", "sensitive skin", "paraben free", "cruelty free", "dry skin" },
            { { "size", { "1.7 fl oz", "2.5 fl oz", "3.4 fl oz", "6.7 fl oz" } } } },
        { "beauty & personal care" CL_SHOP_SEP "hair care" CL_SHOP_SEP "shampoo & conditioner", "shampoo", 6, 39,
            { "sulfate free", "color safe", "argan oil", "damaged hair", "natural ingredients", "tea tree" },
            { { "scent", { "lavender", "coconut", "citrus", "eucalyptus", "rose" } },
                { "size", { "8 fl oz", "12 fl oz", "16 fl oz", "33.8 fl oz" } } } },
        { "beauty & personal care" CL_SHOP_SEP "makeup" CL_SHOP_SEP "lips" CL_SHOP_SEP "lipstick", "lipstick", 5, 35,
            { "long lasting", "matte finish", "cruelty free", "vegan formula", "highly pigmented" },
            { { "color", { "red", "pink", "coral", "burgundy", "nude", "berry", "mauve" } } } },
        { "beauty & personal care" CL_SHOP_SEP "hair care" CL_SHOP_SEP "styling tools" CL_SHOP_SEP "hair dryers",
            "hair dryer", 19, 129,
            { "ionic technology", "fast drying", "low noise", "diffuser attachment", "cool shot" },
            { { "color", { "black", "white", "pink", "purple", "gold" } } } },
        { "beauty & personal care" CL_SHOP_SEP "oral care" CL_SHOP_SEP "toothbrushes", "electric toothbrush", 15, 99,
            { "rechargeable battery", "soft bristles", "travel case", "pressure sensor", "smart timer" },
            { { "color", { "black", "white", "blue", "pink", "green" } } } },
        { "grocery & gourmet food" CL_SHOP_SEP "snacks" CL_SHOP_SEP "chips & crisps", "potato chips", 3, 29,
            { "gluten free", "kettle cooked", "non gmo", "low sodium", "vegan snack" },
            { { "flavor name", { "barbecue", "jalapeno", "cheddar", "original", "ranch", "vinegar" } },
                { "size", { "pack of 6", "pack of 12", "pack of 24" } } } },
        { "grocery & gourmet food" CL_SHOP_SEP "beverages" CL_SHOP_SEP "coffee", "ground coffee", 7, 45,
            { "medium roast", "fair trade", "organic", "single origin", "low acid" },
            { { "flavor name", { "hazelnut", "vanilla", "mocha", "caramel", "french roast" } },
                { "size", { "12 ounce", "24 ounce", "32 ounce" } } } },
        { "grocery & gourmet food" CL_SHOP_SEP "beverages" CL_SHOP_SEP "tea", "green tea", 4, 30,
            { "caffeine free", "usda organic", "individually wrapped", "antioxidant rich", "loose leaf" },
            { { "flavor name", { "mint", "jasmine", "lemon", "ginger", "peach" } },
                { "size", { "20 count", "40 count", "100 count" } } } },
        { "grocery & gourmet food" CL_SHOP_SEP "snacks" CL_SHOP_SEP "protein bars", "protein bar", 9, 49,
            { "high protein", "low sugar", "keto friendly", "plant based", "dairy free" },
            { { "flavor name", { "chocolate", "peanut", "almond", "cookie dough", "blueberry" } },
                { "size", { "pack of 6", "pack of 12", "pack of 24" } } } },
        { "grocery & gourmet food" CL_SHOP_SEP "pantry" CL_SHOP_SEP "honey", "honey", 6, 39,
            { "raw unfiltered", "kosher certified", "glass jar", "no additives", "locally sourced" },
            { { "size", { "12 ounce", "16 ounce", "32 ounce", "48 ounce" } } } },
        { "electronics" CL_SHOP_SEP "headphones" CL_SHOP_SEP "earbuds", "wireless earbuds", 19, 199,
            { "noise cancelling", "charging case", "sweatproof", "touch control", "long battery life" },
            { { "color", { "black", "white", "navy", "pink", "green" } } } },
        { "electronics" CL_SHOP_SEP "computers" CL_SHOP_SEP "keyboards", "mechanical keyboard", 29, 169,
            { "rgb backlit", "hot swappable", "usb c", "wireless connection", "aluminum frame" },
            { { "color", { "black", "white", "grey", "pink" } },
                { "style", { "full size", "tenkeyless", "compact 60" } } } },
        { "electronics" CL_SHOP_SEP "accessories" CL_SHOP_SEP "chargers", "phone charger", 9, 59,
            { "fast charging", "foldable plug", "overheat protection", "dual port", "travel friendly" },
            { { "color", { "black", "white", "blue" } }, { "style", { "20w", "30w", "65w" } } } },
        { "electronics" CL_SHOP_SEP "camera & photo" CL_SHOP_SEP "tripods", "camera tripod", 15, 119,
            { "aluminum alloy", "phone holder", "remote shutter", "carrying bag", "quick release" },
            { { "color", { "black", "grey", "red" } }, { "size", { "50 inch", "60 inch", "72 inch" } } } },
        { "electronics" CL_SHOP_SEP "portable audio" CL_SHOP_SEP "speakers", "bluetooth speaker", 19, 179,
            { "waterproof", "deep bass", "stereo pairing", "built in microphone", "usb charging" },
            { { "color", { "black", "navy", "red", "grey", "green" } } } },
        { "home & kitchen" CL_SHOP_SEP "furniture" CL_SHOP_SEP "living room" CL_SHOP_SEP "tables", "coffee table", 49,
            299, { "solid wood", "easy assembly", "storage shelf", "metal frame", "mid century" },
            { { "color", { "black", "white", "brown", "grey", "beige" } } } },
        { "home & kitchen" CL_SHOP_SEP "furniture" CL_SHOP_SEP "home office" CL_SHOP_SEP "chairs", "office chair", 59,
            349, { "lumbar support", "adjustable height", "mesh back", "swivel wheels", "padded armrests" },
            { { "color", { "black", "white", "grey", "blue", "pink" } } } },
        { "home & kitchen" CL_SHOP_SEP "bedding" CL_SHOP_SEP "pillows", "bed pillow", 14, 89,
            { "memory foam", "cooling gel", "hypoallergenic", "washable cover", "side sleepers" },
            { { "size", { "standard", "queen", "king" } } } },
        { "home & kitchen" CL_SHOP_SEP "home decor" CL_SHOP_SEP "rugs", "area rug", 25, 249,
            { "non shedding", "stain resistant", "low pile", "rubber backing", "pet friendly" },
            { { "size", { "3x5", "5x7", "8x10" } }, { "color", { "grey", "beige", "navy", "blue", "cream" } } } },
    };
    return table;
}

const std::vector<const char*> kBrands = { "Acorvo", "Belmira", "Caldor", "Dunmore", "Everkin", "Fjordly", "Galvani",
    "Harbrook", "Ilvana", "Jostra", "Kelvane", "Lumora", "Marlowe", "Norwick", "Ostrea", "Pellaro", "Quillon", "Rovana",
    "Solvik", "Tamsin", "Umbra", "Velloro", "Wystan", "Yarrow", "Zephra", "Arbeck", "Brisa", "Corvin" };

const std::vector<const char*> kTaglines = { "for everyday use", "for men and women", "premium quality", "gift idea",
    "new edition", "classic design", "best seller", "value pack" };

std::string titleCase(std::string text)
{
    bool start = true;
    for (char& c : text) {
        if (start && std::isalpha(static_cast<unsigned char>(c)))
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        start = c == ' ';
    }
    return text;
}

Product makeProduct(Rng& rng, std::set<std::string>& asins)
{
    const std::vector<TypeDef>& types = typeTable();
    Product p;
    p.type = rng.below(static_cast<int>(types.size()));
    const TypeDef& t = types[static_cast<std::size_t>(p.type)];
    do {
        static const char* alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        p.asin = "B0";
        for (int i = 0; i < 8; ++i)
            p.asin += alphabet[rng.below(36)];
    } while (!asins.insert(p.asin).second);
    p.name = t.name;
    p.query = t.name;
    p.category = t.category;

    std::vector<const char*> pool = t.attributes;
    const int count = std::min(static_cast<int>(pool.size()), 3 + rng.below(2));
    for (int i = 0; i < count; ++i) {
        const int k = i + rng.below(static_cast<int>(pool.size()) - i);
        std::swap(pool[static_cast<std::size_t>(i)], pool[static_cast<std::size_t>(k)]);
        p.attributes.emplace_back(pool[static_cast<std::size_t>(i)]);
    }
    for (const DimDef& d : t.dims) {
        OptionDim dim { d.name, {} };
        const int n = static_cast<int>(d.values.size());
        for (int v = 0; v < n; ++v) // each value offered with probability 0.6, at least one
            if (rng.uniform() < 0.6)
                dim.values.emplace_back(d.values[static_cast<std::size_t>(v)]);
        if (dim.values.empty())
            dim.values.emplace_back(d.values[static_cast<std::size_t>(rng.below(n))]);
        p.options.push_back(std::move(dim));
    }
    const double price = t.priceLow + (t.priceHigh - t.priceLow) * rng.uniform();
    p.price = std::floor(price) + 0.99;

    const std::string brand = kBrands[static_cast<std::size_t>(rng.below(static_cast<int>(kBrands.size())))];
    p.title = brand + " " + titleCase(p.attributes[0]) + " " + titleCase(p.name);
    if (p.attributes.size() > 2 && rng.below(2) == 0)
        p.title += ", " + titleCase(p.attributes[1]);
    p.title += " - " + titleCase(kTaglines[static_cast<std::size_t>(rng.below(static_cast<int>(kTaglines.size())))]);
    for (const std::string& a : p.attributes)
        p.bullets.push_back(titleCase(a) + ".");
    p.description = "The " + brand + " " + p.name + ": made to last and easy to care for. Ships in recyclable "
        + "packaging; see the features for details.";
    return p;
}

} // namespace

std::string Goal::spec() const
{
    std::string s = name + "/";
    for (std::size_t i = 0; i < attributes.size(); ++i)
        s += (i ? "," : "") + attributes[i];
    return s + "/" + std::to_string(target);
}

std::string Goal::expertQuery() const
{
    std::string q;
    for (const std::string& a : attributes)
        q += a + " ";
    return q + name;
}

Split attributeSetSplit(const std::string& name, std::vector<std::string> attributes)
{
    std::sort(attributes.begin(), attributes.end());
    std::uint64_t h = hashText(name);
    for (const std::string& a : attributes)
        h = hashText(a, hashText("|", h));
    Rng mix(h);
    return mix.next() % 5 == 0 ? Split::Eval : Split::Train;
}

std::vector<std::pair<std::string, std::string>> bestOptions(const Product& product, const Goal& goal)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const OptionDim& d : product.options) {
        std::string value = d.values.front();
        for (const auto& [dimension, wanted] : goal.options)
            if (dimension == d.name && std::find(d.values.begin(), d.values.end(), wanted) != d.values.end())
                value = wanted;
        out.emplace_back(d.name, value);
    }
    return out;
}

Catalog::Catalog(std::uint64_t seed, int size)
    : m_seed(seed)
{
    if (size < 1)
        throw std::invalid_argument("shop: the catalog needs at least one product");
    Rng rng(seed ^ 0x5348'4F50'0000'0001ull); // "SHOP"
    std::set<std::string> asins;
    m_products.reserve(static_cast<std::size_t>(size));
    std::vector<SearchIndex::Document> documents;
    documents.reserve(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) {
        Product p = makeProduct(rng, asins);
        p.split = rng.below(5) == 0 ? Split::Eval : Split::Train;
        (p.split == Split::Train ? m_train : m_eval).push_back(i);
        std::string body;
        for (const std::string& b : p.bullets)
            body += b + " ";
        documents.push_back({ p.title, body + p.description });
        m_products.push_back(std::move(p));
    }
    m_index = std::make_unique<SearchIndex>(documents);
}

Goal Catalog::drawGoal(std::uint64_t seed, Split split) const
{
    static const std::vector<const char*> openers
        = { "i need", "i am looking for", "i want to buy", "find me", "i would like", "get me" };
    const std::vector<int>& pool = splitProducts(split);
    if (pool.empty())
        throw std::logic_error("shop: the catalog has no product in the " + std::string(splitName(split)) + " split");
    Rng rng(hashText(split == Split::Eval ? "eval" : "train", seed * 0x9E3779B97F4A7C15ull ^ m_seed));
    for (int attempt = 0; attempt < 10000; ++attempt) {
        Goal g;
        g.target = pool[static_cast<std::size_t>(rng.below(static_cast<int>(pool.size())))];
        const Product& p = product(g.target);
        g.name = p.name;
        g.query = p.query;
        g.category = p.category;
        std::vector<std::string> attributes = p.attributes;
        const int k = attributes.size() >= 4 && rng.below(2) == 0 ? 3 : 2;
        for (int i = 0; i < k; ++i) {
            const int j = i + rng.below(static_cast<int>(attributes.size()) - i);
            std::swap(attributes[static_cast<std::size_t>(i)], attributes[static_cast<std::size_t>(j)]);
        }
        attributes.resize(static_cast<std::size_t>(k));
        if (attributeSetSplit(p.name, attributes) != split)
            continue;
        g.attributes = attributes;
        for (const OptionDim& d : p.options)
            g.options.emplace_back(
                d.name, d.values[static_cast<std::size_t>(rng.below(static_cast<int>(d.values.size())))]);
        // goal.py get_synthetic_goals: the first four multiples of 10 above the price, two sampled, the larger kept;
        // no limit when fewer than two exist.
        std::vector<double> range;
        for (int m = 1; m < 100 && range.size() < 4; ++m)
            if (10.0 * m > p.price)
                range.push_back(10.0 * m);
        std::string priceText;
        if (range.size() >= 2) {
            const int a = rng.below(static_cast<int>(range.size()));
            int b = rng.below(static_cast<int>(range.size()) - 1);
            b += b >= a;
            g.priceUpper = std::max(range[static_cast<std::size_t>(a)], range[static_cast<std::size_t>(b)]);
            char buffer[64];
            std::snprintf(buffer, sizeof buffer, ", and price lower than %.2f dollars", g.priceUpper);
            priceText = buffer;
        }
        g.instruction = openers[static_cast<std::size_t>(rng.below(static_cast<int>(openers.size())))];
        for (std::size_t i = 0; i < attributes.size(); ++i)
            g.instruction += (i == 0 ? " " : i + 1 == attributes.size() ? " and " : ", ") + attributes[i];
        g.instruction += " " + g.name;
        for (std::size_t i = 0; i < g.options.size(); ++i)
            g.instruction += (i == 0 ? " with " : ", and ") + g.options[i].first + ": " + g.options[i].second;
        g.instruction += priceText;

        // Only goals the expert solves: its query must list a product that earns reward 1.
        for (const int r : search(g.expertQuery())) {
            const Product& candidate = product(r);
            if (webshopReward(candidate, g, candidate.price, bestOptions(candidate, g)).total >= 1.0 - 1e-9)
                return g;
        }
    }
    throw std::logic_error("shop: no solvable goal found for seed " + std::to_string(seed));
}

std::vector<int> Catalog::search(std::string_view query, int limit) const
{
    std::string key = std::to_string(limit) + "|" + SearchIndex::joinedWords(query);
    std::vector<int> results;
    if (m_cache.find(key, results))
        return results;
    results = m_index->search(query, limit);
    m_cache.put(std::move(key), results);
    return results;
}

std::shared_ptr<const Catalog> Catalog::shared(std::uint64_t seed, int size)
{
    return sharedInstance<Catalog>(seed, size);
}

} // namespace creditlab::env::shop
