// describeWaitPolicy (runtime.h) apart from process.cpp: a module may link this file, never that one (its
// .preinit_array is refused in a shared object).
#include "core/learn/api/runtime.h"

#include <cstdlib>

namespace creditlab::learn {

std::string describeWaitPolicy(WaitPolicySource source, const OpenMpWaitPolicy& runtime)
{
    const char* env = std::getenv("OMP_WAIT_POLICY");
    std::string value = env ? env : "";
    for (char& c : value)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const std::string spin = runtime.spinCount >= 0 ? std::to_string(runtime.spinCount) : std::string("?");
    const std::string effect = runtime.policy == "passive" ? "idle threads sleep at once"
        : runtime.policy == "active"                       ? "idle threads spin"
                                                           : "idle threads spin " + spin + " rounds, then sleep";
    if (value.empty())
        return runtime.known ? "unset (libgomp's default: " + effect + ")" : "unset (the OpenMP runtime's default)";

    std::string origin;
    switch (source) {
    case WaitPolicySource::Environment:
        origin = "exported before the program started";
        break;
    case WaitPolicySource::BeforeLoad:
        origin = "set before LibTorch loaded, by re-executing the program";
        break;
    case WaitPolicySource::InMain:
        origin = "set in main(), after the libraries loaded";
        break;
    case WaitPolicySource::BeforeRuntime:
        origin = "set in main(), before the training module loaded the OpenMP runtime";
        break;
    case WaitPolicySource::Unset:
        origin = "in the environment; prepareProcess() not called";
        break;
    }
    if (!runtime.known) {
        // Not libgomp (or it cannot say): judge from when the variable was set.
        const bool inForce = source != WaitPolicySource::InMain;
        return value + (inForce ? " (in force: " : " (perhaps NOT in force: ") + origin
            + "; the OpenMP runtime does not report its policy)";
    }
    // libgomp prints "PASSIVE" for an unset policy too; its spin count tells them apart (0 for passive), unless
    // GOMP_SPINCOUNT overrides the count.
    const bool spinCountSet = std::getenv("GOMP_SPINCOUNT") != nullptr;
    const bool inForce = value == runtime.policy || (spinCountSet && value == "passive" && runtime.policy != "active");
    if (inForce)
        return value + " (in force: " + origin + ")";
    return value + " (NOT in force: " + origin + "; libgomp: " + effect + ")";
}

} // namespace creditlab::learn
