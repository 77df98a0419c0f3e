#pragma once

// Opening a loadable module of CreditLab (the training module, the figures module): one search order and one error
// message for every module. Torch-free and Qt-free.

#include <string>

namespace creditlab::learn {

/// Opens `fileName` and returns its exported `symbol`. Looks at $`environmentVariable` (when set and not empty), then
/// beside the executable, then in ../lib/creditlab/ and ../lib/ relative to it; the first file that loads and has
/// the symbol wins, and its handle stays open for the life of the process. RTLD_LOCAL: the module's own libraries
/// (LibTorch, Qt) stay inside it. Throws std::runtime_error naming `what`, every place tried and the loader's
/// message there.
void* openModuleSymbol(
    const std::string& fileName, const char* environmentVariable, const char* symbol, const std::string& what);

} // namespace creditlab::learn
