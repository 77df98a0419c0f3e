// Network file system detection for the store (networkfs.h): statfs's f_type against the magic numbers of
// linux/magic.h and of the out-of-tree cluster file systems.
#include "core/storage/networkfs.h"

#include "core/storage/database.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <utility>

#ifdef __linux__
#include <sys/vfs.h>
#endif

namespace creditlab {

namespace fs = std::filesystem;

namespace {

/// f_type values (linux/magic.h, and each file system's sources for those outside the kernel).
constexpr std::pair<std::uint32_t, const char*> kNetworkFileSystems[] = {
    { 0x6969, "NFS" },
    { 0x517B, "SMB" },
    { 0xFF534D42, "CIFS" },
    { 0xFE534D42, "SMB2" },
    { 0x0BD00BD0, "Lustre" },
    { 0x47504653, "GPFS (IBM Storage Scale)" },
    { 0x00C36400, "CephFS" },
    { 0x5346414F, "AFS" },
    { 0x6B414653, "AFS" },
    { 0x73757245, "Coda" },
    { 0x01021997, "9P" },
    { 0x01161970, "GFS2" },
    { 0x7461636F, "OCFS2" },
    { 0x19830326, "BeeGFS" },
    { 0xAAD7AAEA, "PanFS" },
    { 0x20030528, "OrangeFS" },
    { 0x564C, "NCP" },
    { 0x65735546, "FUSE (sshfs, GlusterFS, gcsfuse, ...)" },
};

/// The path itself when it exists, else its nearest existing ancestor ("." for a bare relative name).
fs::path existingFolder(const std::string& path)
{
    std::error_code ec;
    fs::path p = fs::absolute(path.empty() ? fs::path(".") : fs::path(path), ec);
    if (ec)
        p = fs::path(path);
    while (!p.empty() && !fs::exists(p, ec)) {
        if (p == p.parent_path())
            break;
        p = p.parent_path();
    }
    const fs::path canonical = fs::weakly_canonical(p, ec);
    return ec ? p : canonical;
}

bool underSimulatedNetworkFs(const fs::path& folder)
{
    const char* env = std::getenv("CREDITLAB_TEST_NETWORK_FS");
    if (!env || !*env)
        return false;
    std::stringstream list(env);
    const std::string here = folder.string();
    for (std::string prefix; std::getline(list, prefix, ':');) {
        if (prefix.empty())
            continue;
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(prefix, ec);
        std::string p = (ec ? fs::path(prefix) : canonical).string();
        while (p.size() > 1 && p.back() == '/')
            p.pop_back();
        if (here == p || (here.size() > p.size() && here.compare(0, p.size(), p) == 0 && here[p.size()] == '/'))
            return true;
    }
    return false;
}

} // namespace

std::optional<std::string> networkFileSystem(const std::string& path)
{
    const fs::path folder = existingFolder(path);
    if (underSimulatedNetworkFs(folder))
        return std::string("NFS (simulated: CREDITLAB_TEST_NETWORK_FS)");
#ifdef __linux__
    struct statfs info { };
    if (::statfs(folder.c_str(), &info) != 0)
        return std::nullopt; // cannot tell: opening will report what is wrong with the path
    const auto type = static_cast<std::uint32_t>(info.f_type);
    for (const auto& [magic, name] : kNetworkFileSystems)
        if (type == magic)
            return std::string(name);
#endif
    return std::nullopt;
}

void refuseWalOnNetworkFileSystem(const std::string& databasePath)
{
    const auto name = networkFileSystem(databasePath);
    if (!name)
        return;
    if (const char* allow = std::getenv("CREDITLAB_ALLOW_NETWORK_FS"); allow && std::string(allow) == "1")
        return;
    throw StoreError(databasePath + ": on a network file system (" + *name
        + "), where SQLite's WAL mode, which CreditLab databases use, is unsafe: its locks and shared memory do not "
          "work between machines, and the file can be corrupted. Put the database on a local disk instead (--db "
          "/tmp/... or node-local scratch), then copy it and combine the copies with 'creditlab-cli merge A.db B.db "
          "--into C.db', or stream to one 'creditlab-cli serve' with --post URL. The file was not opened for writing "
          "(CREDITLAB_ALLOW_NETWORK_FS=1 skips this check, for a FUSE file system that is in fact local).");
}

} // namespace creditlab
