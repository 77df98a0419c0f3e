// doctor: what this build can do and on what hardware. In the training module (learnmodule.h).
#include "commands.h"
#include "learnmodule.h"

#include "core/learn/api/runtime.h"
#include "core/learn/torch/engine/doctor.h"
#include "core/storage/paths.h"
#include "core/storage/schema.h"
#include "core/version.h"

#include <cstdio>
#include <sqlite3.h>

namespace creditlab::cli {

void addDoctorCommand(CLI::App& app, learn::WaitPolicySource waitPolicy)
{
    auto threads = std::make_shared<int>(0);
    CLI::App* cmd = app.add_subcommand("doctor", "Show LibTorch, devices, threads, BLAS and versions");
    cmd->add_option("--threads", *threads, "Intra-op threads to configure before measuring (0: all cores)")
        ->check(CLI::NonNegativeNumber);
    cmd->callback([threads, waitPolicy] {
        learn::configureThreads(learn::RuntimeOptions { *threads });
        const learn::DoctorReport r = learn::collectDoctorReport();
        std::printf("CreditLab        %s\n", kVersion);
        std::printf("LibTorch         %s (%s)\n", r.torchVersion.c_str(), r.cudaBuild ? "CUDA" : "CPU only");
#ifdef CREDITLAB_QT_VERSION
        std::printf("Qt               %s (GUI built)\n", CREDITLAB_QT_VERSION);
#else
        std::printf("Qt               not built (CREDITLAB_BUILD_UI=OFF)\n");
#endif
        std::printf("SQLite           %s\n", sqlite3_libversion());
        std::printf("devices          cpu%s\n", r.gpus.empty() ? "" : ", cuda");
        for (const auto& g : r.gpus)
            std::printf("  cuda:%d         %s%s\n", g.index, g.name.c_str(),
                g.memoryGiB > 0 ? (" (" + std::to_string(static_cast<int>(g.memoryGiB + 0.5)) + " GiB)").c_str() : "");
        std::printf("default device   %s\n", r.defaultDevice.c_str());
        std::printf("cores            %d\n", r.hardwareThreads);
        std::printf("intra-op threads %d\n", r.intraOpThreads);
        std::printf("inter-op threads %d\n", r.interOpThreads);
        std::printf(
            "OMP_WAIT_POLICY  %s\n", learn::describeWaitPolicy(waitPolicy, r.openmpWait).c_str());
        std::printf("BLAS             %s\n", r.blasLibrary.c_str());
        if (r.blasThreads > 0)
            std::printf("BLAS threads     %d\n", r.blasThreads);
        std::printf("matmul 512x512   %.1f GFLOP/s (float32, cpu)\n", r.matmulGflops);
        if (r.referenceBlas)
            std::printf("warning          OpenBLAS is not loaded: matmuls use a slow reference BLAS; install "
                        "libopenblas0-pthread\n");
        std::printf("database         %s (schema %d)\n", defaultDatabasePath().c_str(), schema::kVersion);
    });
}

} // namespace creditlab::cli
