#include "core/storage/database.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sqlite3.h>
#include <sys/stat.h>

namespace creditlab {

Statement::Statement(sqlite3* db, std::string_view sql)
    : m_db(db)
{
    const int rc
        = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        raise(rc);
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement::Statement(Statement&& other) noexcept
    : m_db(other.m_db)
    , m_stmt(other.m_stmt)
{
    other.m_stmt = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = other.m_stmt;
        other.m_stmt = nullptr;
    }
    return *this;
}

void Statement::raise(int rc) const
{
    const char* file = m_db ? sqlite3_db_filename(m_db, "main") : nullptr;
    std::string where = file && *file ? std::string(file) : std::string("database");
    throw StoreError(where + ": " + (m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc)));
}

Statement& Statement::bind(int index, std::int64_t value)
{
    if (const int rc = sqlite3_bind_int64(m_stmt, index, value); rc != SQLITE_OK)
        raise(rc);
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (const int rc = sqlite3_bind_double(m_stmt, index, value); rc != SQLITE_OK)
        raise(rc);
    return *this;
}

Statement& Statement::bind(int index, std::string_view value)
{
    // SQLITE_STATIC: callers keep the text alive until the statement is stepped. A null data
    // pointer would bind SQL NULL, but an empty view is an empty string.
    const char* data = value.data() ? value.data() : "";
    if (const int rc = sqlite3_bind_text64(m_stmt, index, data, value.size(), SQLITE_STATIC, SQLITE_UTF8);
        rc != SQLITE_OK)
        raise(rc);
    return *this;
}

Statement& Statement::bindBlob(int index, std::string_view bytes)
{
    // A null pointer would bind SQL NULL: an empty view binds an empty BLOB.
    const char* data = bytes.data() ? bytes.data() : "";
    if (const int rc = sqlite3_bind_blob64(m_stmt, index, data, bytes.size(), SQLITE_STATIC); rc != SQLITE_OK)
        raise(rc);
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (const int rc = sqlite3_bind_null(m_stmt, index); rc != SQLITE_OK)
        raise(rc);
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3_reset(m_stmt);
    raise(rc);
}

void Statement::exec()
{
    while (step()) { }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
std::int64_t Statement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string_view Statement::columnTextView(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string_view(p, static_cast<std::size_t>(n)) : std::string_view();
}

std::string_view Statement::columnBlob(int column) const
{
    const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, column));
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string_view(p, static_cast<std::size_t>(n)) : std::string_view();
}

std::string Statement::columnText(int column) const { return std::string(columnTextView(column)); }

std::optional<std::int64_t> Statement::columnOptInt(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return columnInt(column);
}

std::optional<double> Statement::columnOptDouble(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return columnDouble(column);
}

std::optional<std::string> Statement::columnOptText(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return columnText(column);
}

namespace {

/// Open connections per file (device, inode), process-wide.
std::mutex g_openMutex;
std::map<std::pair<std::uint64_t, std::uint64_t>, int> g_openFiles;

std::optional<std::pair<std::uint64_t, std::uint64_t>> fileKey(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) // stat() opens no descriptor, so it drops no lock
        return std::nullopt;
    return std::make_pair(static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino));
}

} // namespace

bool Database::isOpenInProcess(const std::string& path)
{
    const auto key = fileKey(path);
    if (!key)
        return false;
    std::lock_guard<std::mutex> lock(g_openMutex);
    const auto it = g_openFiles.find(*key);
    return it != g_openFiles.end() && it->second > 0;
}

bool Database::readHeaderIfUnopened(const std::string& path, unsigned char* out, std::size_t size)
{
    std::lock_guard<std::mutex> lock(g_openMutex);
    if (const auto key = fileKey(path); !key || g_openFiles.count(*key))
        return false;
    std::ifstream in(path, std::ios::binary);
    return static_cast<bool>(in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(size)));
}

Database::Database(const std::string& path, Access access)
    : m_path(path)
    , m_access(access)
{
    // SQLite's allocation statistics take a global mutex on every malloc; nothing here reads them.
    static const bool configured = [] {
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        return true;
    }();
    (void)configured;
    int flags = SQLITE_OPEN_NOMUTEX;
    if (access == Access::ReadOnly) {
        flags |= SQLITE_OPEN_READONLY;
        std::error_code ec;
        if (!std::filesystem::exists(path, ec))
            throw StoreError(path + ": no such database");
    } else {
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        const auto parent = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty())
            std::filesystem::create_directories(parent, ec);
    }
    std::unique_lock<std::mutex> registry(g_openMutex); // no header read while this connection opens
    const int rc = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError(path + ": cannot open database: " + msg);
    }
    sqlite3_extended_result_codes(m_db, 1);
    // Writers hold the lock briefly (one transaction per file or iteration); wait rather than fail.
    sqlite3_busy_timeout(m_db, 10000);
    if ((m_fileKey = fileKey(path)))
        ++g_openFiles[*m_fileKey];
}

Database::~Database()
{
    sqlite3_close_v2(m_db);
    if (m_fileKey) {
        std::lock_guard<std::mutex> lock(g_openMutex);
        if (--g_openFiles[*m_fileKey] <= 0)
            g_openFiles.erase(*m_fileKey);
    }
}

void Database::exec(std::string_view sql)
{
    char* err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(m_db);
        sqlite3_free(err);
        throw StoreError(m_path + ": " + msg);
    }
}

std::int64_t Database::scalarInt(std::string_view sql)
{
    Statement st = prepare(sql);
    if (!st.step())
        return 0;
    return st.columnInt(0);
}

std::int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }

Transaction::Transaction(Database& db)
    : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction()
{
    if (!m_done) {
        try {
            m_db.exec("ROLLBACK");
        } catch (...) {
            // The connection may already have rolled back (e.g. after SQLITE_FULL); nothing to undo.
        }
    }
}

void Transaction::commit()
{
    m_db.exec("COMMIT");
    m_done = true;
}

} // namespace creditlab
