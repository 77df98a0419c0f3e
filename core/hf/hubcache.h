#pragma once

// The local Hugging Face Hub cache, read as transformers reads it offline (huggingface_hub's layout:
// `models--ORG--NAME/refs/REVISION` holds a commit hash, `snapshots/HASH/` the files). Nothing is ever downloaded.

#include <string>

namespace creditlab::hf {

/// The cache folder: $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else
/// $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub (huggingface_hub's order).
std::string hubCacheDir();

/// A model folder from `spec`: an existing folder is returned as it is; otherwise `spec` is a repository id
/// ("Qwen/Qwen2.5-0.5B-Instruct", optionally "@REVISION": a branch, tag or commit hash; "main" by default) looked up
/// in the cache. Throws HfError saying what was looked for and where, and that nothing is downloaded.
std::string resolveModelFolder(const std::string& spec);

} // namespace creditlab::hf
