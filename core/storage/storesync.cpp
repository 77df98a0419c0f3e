// Trial snapshots and posting them to `serve` (storesync.h).
#include "core/storage/storesync.h"

#include "core/storage/store.h"
#include "core/storage/storemerge.h"

#include <httplib.h>
#include <openssl/evp.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace creditlab {

namespace fs = std::filesystem;

std::string sha256Hex(std::string_view bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < size; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 15];
    }
    return out;
}

void writeTrialSnapshot(const std::string& source, const std::string& trialUid, const std::string& out)
{
    std::error_code ec;
    for (const char* suffix : { "", "-wal", "-shm" })
        fs::remove(out + suffix, ec);
    {
        Store snapshot(out);
        mergeDatabases(snapshot.database(), { source }, MergeOptions { trialUid });
    } // closed: its WAL is checkpointed into the file and removed
}

std::string postDatabase(
    const std::string& url, const std::string& file, const std::optional<std::string>& token, int attempts)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos || url.compare(0, scheme, "http") != 0)
        throw std::invalid_argument("--post: '" + url + "' is not http://host[:port][/prefix]");
    const auto slash = url.find('/', scheme + 3);
    const std::string hostPort = url.substr(0, slash);
    std::string prefix = slash == std::string::npos ? std::string() : url.substr(slash);
    while (!prefix.empty() && prefix.back() == '/')
        prefix.pop_back();
    if (prefix.size() >= 3 && prefix.compare(prefix.size() - 3, 3, "/v1") == 0)
        prefix.resize(prefix.size() - 3);
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in)
        throw std::runtime_error(file + ": cannot read the snapshot to post");
    const std::string body = bytes.str();

    httplib::Client client(hostPort);
    if (!client.is_valid())
        throw std::invalid_argument("--post: '" + url + "' is not usable");
    client.set_connection_timeout(std::chrono::seconds(10));
    client.set_read_timeout(std::chrono::seconds(300)); // a big trial takes the server a while to merge
    client.set_write_timeout(std::chrono::seconds(300));
    client.set_decompress(false);
    httplib::Headers headers;
    if (token)
        headers.emplace("Authorization", "Bearer " + *token);
    const std::string target = prefix + "/v1/merge";
    std::string last;
    int backoffMs = 500;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        const auto res = client.Post(target, headers, body, "application/vnd.sqlite3");
        if (res && res->status >= 200 && res->status < 300)
            return res->body;
        if (res) {
            last = "HTTP " + std::to_string(res->status) + ": " + res->body;
            if (res->status != 429 && res->status < 500)
                break; // refused: the same request would be refused again
        } else {
            last = httplib::to_string(res.error());
        }
        if (attempt < attempts) {
            std::this_thread::sleep_for(std::chrono::milliseconds(backoffMs));
            backoffMs = std::min(backoffMs * 2, 8000);
        }
    }
    throw std::runtime_error("POST " + hostPort + target + ": " + last);
}

} // namespace creditlab
