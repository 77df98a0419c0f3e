#pragma once

// The shop's search engine: an in-memory SQLite database with an FTS5 table over the catalog, ranked by BM25
// (WebShop ranks with Pyserini's BM25 over the same fields). Internal to core/env.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace creditlab::env::shop {

/// A full-text index built once and then only read. One connection, guarded by a mutex: any thread may search.
class SearchIndex {
public:
    /// One indexed document per product: its title and its body (bullet points and description).
    struct Document {
        std::string title;
        std::string body;
    };

    /// Builds the index in memory; document i gets rowid i. Throws std::runtime_error when SQLite lacks FTS5.
    explicit SearchIndex(const std::vector<Document>& documents);
    ~SearchIndex();
    SearchIndex(const SearchIndex&) = delete;
    SearchIndex& operator=(const SearchIndex&) = delete;

    /// Document indices matching any word of `query`, at most `limit`: a title equal to the query word for word
    /// first, then by BM25 (the title weighing ten times the body), ties by index. The query is split into
    /// lower-case alphanumeric words, so no FTS5 syntax reaches SQLite. Any thread.
    std::vector<int> search(std::string_view query, int limit) const;
    /// The BM25 score SQLite gives document `index` for `query` (lower is better, as FTS5's rank); 0 when it
    /// does not match. For tests. Any thread.
    double bm25(std::string_view query, int index) const;

    /// The lower-case alphanumeric words of `text`, the way the index tokenises (FTS5's unicode61 on ASCII).
    static std::vector<std::string> words(std::string_view text);
    /// words(text) joined by single spaces.
    static std::string joinedWords(std::string_view text);

private:
    static std::string matchExpression(std::string_view query);

    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_search = nullptr;
    sqlite3_stmt* m_score = nullptr;
    mutable std::mutex m_mutex;
};

/// The results of recent queries ("limit|words" -> ids) of a catalog or knowledge base, cleared whenever it holds
/// `capacity` entries: a policy's free-form queries must not grow it without bound. Any thread.
class QueryCache {
public:
    explicit QueryCache(std::size_t capacity)
        : m_capacity(capacity)
    {
    }
    /// The cached results of `key` into `out`; false when there are none.
    bool find(const std::string& key, std::vector<int>& out) const
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(key);
        if (it == m_entries.end())
            return false;
        out = it->second;
        return true;
    }
    void put(std::string key, const std::vector<int>& results)
    {
        const std::lock_guard lock(m_mutex);
        if (m_entries.size() >= m_capacity)
            m_entries.clear();
        m_entries.emplace(std::move(key), results);
    }

private:
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::vector<int>> m_entries;
};

/// The `T(seed, size)` (a catalog, a knowledge base) that environments with those parameters share read-only;
/// built on first use, freed with its last holder. Any thread.
template <class T> std::shared_ptr<const T> sharedInstance(std::uint64_t seed, int size)
{
    static std::mutex mutex;
    static std::map<std::pair<std::uint64_t, int>, std::weak_ptr<const T>> instances;
    const std::lock_guard lock(mutex);
    std::weak_ptr<const T>& slot = instances[{ seed, size }];
    std::shared_ptr<const T> instance = slot.lock();
    if (!instance) {
        instance = std::make_shared<const T>(seed, size);
        slot = instance;
    }
    return instance;
}

} // namespace creditlab::env::shop
