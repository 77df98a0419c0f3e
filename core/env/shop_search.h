#pragma once

// The shop's search engine: an in-memory SQLite database with an FTS5 table over the catalog, ranked by BM25
// (WebShop ranks with Pyserini's BM25 over the same fields). Internal to core/env.

#include <mutex>
#include <string>
#include <string_view>
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

} // namespace creditlab::env::shop
