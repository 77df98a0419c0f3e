#pragma once

// `creditlab-cli train --nproc N`: N ranks of one data-parallel run on this machine, each a copy of this very command
// line with torchrun's variables set (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), as
// `torchrun --nproc-per-node N --no-python creditlab-cli train …` would start them. POSIX only; links neither Qt nor
// LibTorch.

#include <string>
#include <vector>

namespace creditlab::cli {

/// This process's arguments (from /proc/self/cmdline), argv[0] included.
std::vector<std::string> ownArguments();

/// `args` without the option `name` and its value (either "--name V" or "--name=V").
std::vector<std::string> withoutOption(std::vector<std::string> args, const std::string& name);

/// Starts `nproc` copies of `args` (args[0] is replaced by this executable) as ranks 0..nproc-1 rendezvousing on
/// 127.0.0.1 at a free port, forwards SIGINT and SIGTERM to them, and waits. When one rank fails, the others are given
/// `graceSeconds` to notice (their collectives fail and they exit) and are then killed. Returns 0 when every rank
/// exited 0, else the first failing rank's exit status (128 + signal for a killed one), after saying which rank failed
/// and how on stderr.
int runLocalRanks(int nproc, const std::vector<std::string>& args, double graceSeconds);

} // namespace creditlab::cli
