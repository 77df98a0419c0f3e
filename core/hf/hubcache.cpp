#include "core/hf/hubcache.h"

#include "core/hf/config.h"
#include "core/hf/error.h"

#include <cstdlib>
#include <filesystem>

namespace creditlab::hf {

namespace {

namespace fs = std::filesystem;

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

bool isRepoId(const std::string& spec)
{
    // ORG/NAME: one slash, no leading dot or slash, characters the Hub allows.
    const auto slash = spec.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == spec.size()
        || spec.find('/', slash + 1) != std::string::npos)
        return false;
    if (spec[0] == '.' || spec[0] == '~')
        return false;
    for (const char ch : spec)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' || ch == '/'))
            return false;
    return spec.find("..") == std::string::npos;
}

bool isCommitHash(const std::string& s)
{
    if (s.size() != 40)
        return false;
    for (const char ch : s)
        if (!std::isxdigit(static_cast<unsigned char>(ch)))
            return false;
    return true;
}

} // namespace

std::string hubCacheDir()
{
    if (std::string v = env("HF_HUB_CACHE"); !v.empty())
        return v;
    if (std::string v = env("HUGGINGFACE_HUB_CACHE"); !v.empty())
        return v;
    if (std::string v = env("HF_HOME"); !v.empty())
        return (fs::path(v) / "hub").string();
    if (std::string v = env("XDG_CACHE_HOME"); !v.empty())
        return (fs::path(v) / "huggingface" / "hub").string();
    return (fs::path(env("HOME")) / ".cache" / "huggingface" / "hub").string();
}

std::string resolveModelFolder(const std::string& spec)
{
    std::error_code ec;
    if (fs::is_directory(spec, ec))
        return spec;
    std::string repo = spec;
    std::string revision = "main";
    if (const auto at = spec.rfind('@'); at != std::string::npos) {
        repo = spec.substr(0, at);
        revision = spec.substr(at + 1);
    }
    if (!isRepoId(repo) || revision.empty() || revision.find('/') != std::string::npos
        || revision.find("..") != std::string::npos)
        throw HfError(spec + ": no such folder, and not a Hugging Face repository id (ORG/NAME[@REVISION])");
    const std::string cache = hubCacheDir();
    std::string folderName = "models--" + repo;
    for (std::size_t i = 0; (i = folderName.find('/', i)) != std::string::npos;)
        folderName.replace(i, 1, "--");
    const fs::path repoDir = fs::path(cache) / folderName;
    if (!fs::is_directory(repoDir, ec))
        throw HfError(spec + ": not in the Hugging Face cache (" + repoDir.string()
            + " is missing); CreditLab never downloads. Download it once, e.g. `huggingface-cli download " + repo
            + "`, set HF_HUB_CACHE or HF_HOME, or give the model's folder");
    std::string commit = revision;
    if (!isCommitHash(revision)) {
        const fs::path ref = repoDir / "refs" / revision;
        if (!fs::exists(ref, ec))
            throw HfError(spec + ": the cache has no revision \"" + revision + "\" (" + ref.string() + " is missing)");
        commit = readTextFile(ref.string());
        while (!commit.empty() && std::isspace(static_cast<unsigned char>(commit.back())))
            commit.pop_back();
        if (!isCommitHash(commit))
            throw HfError(ref.string() + ": expected a 40-character commit hash");
    }
    const fs::path snapshot = repoDir / "snapshots" / commit;
    if (!fs::is_directory(snapshot, ec))
        throw HfError(spec + ": the cache's snapshot " + snapshot.string() + " is missing (an interrupted download?)");
    return snapshot.string();
}

} // namespace creditlab::hf
