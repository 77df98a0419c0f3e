#include "core/env/shop_search.h"

#include <sqlite3.h>

#include <cctype>
#include <stdexcept>

namespace creditlab::env::shop {

namespace {

[[noreturn]] void fail(sqlite3* db, const char* what)
{
    throw std::runtime_error(std::string("shop search index: ") + what + ": " + sqlite3_errmsg(db));
}

void exec(sqlite3* db, const char* sql)
{
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw std::runtime_error(std::string("shop search index: ") + sql + ": " + text);
    }
}

sqlite3_stmt* prepare(sqlite3* db, const char* sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
        fail(db, sql);
    return stmt;
}

} // namespace

SearchIndex::SearchIndex(const std::vector<Document>& documents)
{
    if (sqlite3_open_v2(":memory:", &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr)
        != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        throw std::runtime_error("shop search index: cannot open an in-memory database: " + message);
    }
    try {
        // unicode61 with diacritics removed: the tokenizer words() mirrors for ASCII text.
        exec(m_db, "CREATE VIRTUAL TABLE products USING fts5(title, body, key UNINDEXED, tokenize = 'unicode61')");
        exec(m_db, "BEGIN");
        sqlite3_stmt* insert = prepare(m_db, "INSERT INTO products(rowid, title, body, key) VALUES (?1, ?2, ?3, ?4)");
        for (std::size_t i = 0; i < documents.size(); ++i) {
            sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(i));
            sqlite3_bind_text(
                insert, 2, documents[i].title.data(), static_cast<int>(documents[i].title.size()), SQLITE_STATIC);
            sqlite3_bind_text(
                insert, 3, documents[i].body.data(), static_cast<int>(documents[i].body.size()), SQLITE_STATIC);
            const std::string key = joinedWords(documents[i].title);
            sqlite3_bind_text(insert, 4, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
            const int rc = sqlite3_step(insert);
            sqlite3_reset(insert);
            if (rc != SQLITE_DONE) {
                sqlite3_finalize(insert);
                fail(m_db, "insert");
            }
        }
        sqlite3_finalize(insert);
        exec(m_db, "COMMIT");
        exec(m_db, "INSERT INTO products(products) VALUES ('optimize')");
        // BM25 with the title weighing ten times the body, as a shop's search favours titles; `rank` uses it.
        exec(m_db, "INSERT INTO products(products, rank) VALUES ('rank', 'bm25(10.0, 1.0, 0.0)')");
        // A title equal to the query (word for word) first, as shops list an exact match first: FTS5's BM25
        // normalises by the length of the whole document, so a longer body can otherwise push it down.
        m_search = prepare(
            m_db, "SELECT rowid FROM products WHERE products MATCH ?1 ORDER BY key = ?3 DESC, rank, rowid LIMIT ?2");
        m_score = prepare(m_db, "SELECT rank FROM products WHERE products MATCH ?1 AND rowid = ?2");
    } catch (...) {
        sqlite3_finalize(m_search);
        sqlite3_finalize(m_score);
        sqlite3_close(m_db);
        throw;
    }
}

SearchIndex::~SearchIndex()
{
    sqlite3_finalize(m_search);
    sqlite3_finalize(m_score);
    sqlite3_close(m_db);
}

std::vector<std::string> SearchIndex::words(std::string_view text)
{
    std::vector<std::string> out;
    std::string word;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || u >= 0x80) {
            word.push_back(static_cast<char>(std::tolower(u)));
        } else if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty())
        out.push_back(std::move(word));
    return out;
}

std::string SearchIndex::joinedWords(std::string_view text)
{
    std::string out;
    for (const std::string& w : words(text))
        out += (out.empty() ? "" : " ") + w;
    return out;
}

std::string SearchIndex::matchExpression(std::string_view query)
{
    // Every word quoted and OR-ed: BM25 over any of the words, as a bag-of-words engine ranks; quoting keeps
    // FTS5's operators (AND, NEAR, column filters, ...) out of user text.
    std::string expr;
    for (const std::string& w : words(query)) {
        if (!expr.empty())
            expr += " OR ";
        expr += '"' + w + '"';
    }
    return expr;
}

std::vector<int> SearchIndex::search(std::string_view query, int limit) const
{
    std::vector<int> out;
    const std::string expr = matchExpression(query);
    if (expr.empty() || limit <= 0)
        return out;
    const std::lock_guard lock(m_mutex);
    sqlite3_bind_text(m_search, 1, expr.data(), static_cast<int>(expr.size()), SQLITE_STATIC);
    sqlite3_bind_int(m_search, 2, limit);
    const std::string key = joinedWords(query);
    sqlite3_bind_text(m_search, 3, key.data(), static_cast<int>(key.size()), SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(m_search)) == SQLITE_ROW)
        out.push_back(sqlite3_column_int(m_search, 0));
    sqlite3_reset(m_search);
    sqlite3_clear_bindings(m_search);
    if (rc != SQLITE_DONE)
        fail(m_db, "search");
    return out;
}

double SearchIndex::bm25(std::string_view query, int index) const
{
    const std::string expr = matchExpression(query);
    if (expr.empty())
        return 0.0;
    const std::lock_guard lock(m_mutex);
    sqlite3_bind_text(m_score, 1, expr.data(), static_cast<int>(expr.size()), SQLITE_STATIC);
    sqlite3_bind_int(m_score, 2, index);
    double score = 0.0;
    const int rc = sqlite3_step(m_score);
    if (rc == SQLITE_ROW)
        score = sqlite3_column_double(m_score, 0);
    sqlite3_reset(m_score);
    sqlite3_clear_bindings(m_score);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        fail(m_db, "bm25");
    return score;
}

} // namespace creditlab::env::shop
