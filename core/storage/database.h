#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace creditlab {

/// A storage failure; `what()` names the database file and the SQLite message.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// RAII prepared statement. Bind indices are 1-based, column indices 0-based. Same thread as its Database.
class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bindNull(int index);
    /// Binds `bytes` as a BLOB (kept alive by the caller until the statement is stepped, as text is).
    Statement& bindBlob(int index, std::string_view bytes);
    template <typename T> Statement& bind(int index, const std::optional<T>& value)
    {
        return value ? bind(index, *value) : bindNull(index);
    }

    bool isNull() const { return m_stmt == nullptr; }

    /// Steps once; true while a row is available.
    bool step();
    /// Steps to completion (for statements that return no rows) and resets.
    void exec();
    void reset();

    bool isNull(int column) const;
    std::int64_t columnInt(int column) const;
    double columnDouble(int column) const;
    std::string columnText(int column) const;
    std::string_view columnTextView(int column) const;
    /// A BLOB column's bytes (valid until the next step or reset); empty for NULL.
    std::string_view columnBlob(int column) const;
    std::optional<std::int64_t> columnOptInt(int column) const;
    std::optional<double> columnOptDouble(int column) const;
    std::optional<std::string> columnOptText(int column) const;

private:
    [[noreturn]] void raise(int rc) const;

    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

/// One SQLite connection. Open, use and close it on one thread (STYLE rule 9).
class Database {
public:
    enum class Access { ReadWrite, ReadOnly };

    /// Opens (ReadWrite creates the file and its folder when missing). Throws StoreError naming the file.
    Database(const std::string& path, Access access);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }
    bool readOnly() const { return m_access == Access::ReadOnly; }

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql) const { return Statement(m_db, sql); }
    std::int64_t scalarInt(std::string_view sql);
    std::int64_t lastInsertId() const;

    /// Whether this process has an open Database on the file at `path` (the same inode). Code that must read
    /// the file outside SQLite checks this first: closing any descriptor of a database drops every POSIX lock
    /// the process holds on it, the shared locks of its open connections included. Any thread.
    static bool isOpenInProcess(const std::string& path);
    /// Reads the first `size` bytes of the file at `path` into `out`, unless this process has it open as a
    /// Database (then returns false, as for a missing or short file). Serialised with opening, so that no
    /// connection opens while the file is read. Any thread.
    static bool readHeaderIfUnopened(const std::string& path, unsigned char* out, std::size_t size);

private:
    std::string m_path;
    Access m_access;
    sqlite3* m_db = nullptr;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> m_fileKey; ///< (device, inode) while open
};

/// BEGIN IMMEDIATE on construction; rolls back on destruction unless committed. Same thread.
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Database& m_db;
    bool m_done = false;
};

} // namespace creditlab
