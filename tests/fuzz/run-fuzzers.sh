#!/bin/bash
# Runs CreditLab's libFuzzer targets (tests/fuzz/fuzz_*.cpp).
#
#   tests/fuzz/run-fuzzers.sh [SECONDS_PER_TARGET]     each target for SECONDS (default 60) on a copy of its corpus
#   tests/fuzz/run-fuzzers.sh --smoke                  each target replays its corpus once (ctest fuzz_smoke)
#
# Options: --only NAME[,NAME...] (targets, with or without the fuzz_ prefix), --build-dir DIR (default build/fuzz),
# --jobs N (build parallelism, default 1), --no-build, --keep (keep the corpus a run grew; by default it is removed
# unless the target crashed), --continue (start from the corpus the last --keep run grew, plus the seeds).
# Builds the `fuzz` preset first when needed (clang; on Debian 12: apt-get install clang libclang-rt-14-dev). Each
# run works in DIR/fuzz-work/<target>/: corpus/ (a copy of tests/fuzz/corpus/<target> plus what the run found) and
# the crashing input when there is one. Prints per target the executions, executions per second, new corpus units,
# the final coverage and the crashes; exits 1 when any target crashed, leaked, timed out or ran out of memory, naming
# the input that did.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=60
smoke=0
only=""
build_dir="$root/build/fuzz"
jobs=1
build=1
keep=0
continue=0
while [ $# -gt 0 ]; do
    case "$1" in
    --smoke) smoke=1 ;;
    --only) only="$2"; shift ;;
    --build-dir) build_dir="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    --no-build) build=0 ;;
    --keep) keep=1 ;;
    --continue) continue=1; keep=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    [0-9]*) seconds="$1" ;;
    *) echo "run-fuzzers.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

targets=()
for dir in "$here"/corpus/fuzz_*; do
    targets+=("$(basename "$dir")")
done
if [ -n "$only" ]; then
    wanted=()
    IFS=, read -ra names <<<"$only"
    for n in "${names[@]}"; do
        n="fuzz_${n#fuzz_}"
        [ -d "$here/corpus/$n" ] || { echo "run-fuzzers.sh: no target $n (no tests/fuzz/corpus/$n)" >&2; exit 2; }
        wanted+=("$n")
    done
    targets=("${wanted[@]}")
fi

if [ "$build" = 1 ] && [ "$smoke" = 0 ]; then
    if [ ! -f "$build_dir/build.ninja" ]; then
        (cd "$root" && cmake --preset fuzz -B "$build_dir") || exit 1
    fi
    cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" || exit 1
fi

dict_of() {
    case "$1" in
    fuzz_trainconfig|fuzz_sweep|fuzz_experiment) echo "$here/dict/yaml.dict" ;;
    fuzz_server) echo "$here/dict/server.dict" ;;
    fuzz_household) echo "$here/dict/household.dict" ;;
    fuzz_shop|fuzz_searchqa|fuzz_recall) echo "$here/dict/env.dict" ;;
    fuzz_hf_template) echo "$here/dict/jinja.dict" ;;
    *) echo "$here/dict/json.dict" ;;
    esac
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=0
work="$build_dir/fuzz-work"
mkdir -p "$work"

if [ "$smoke" = 1 ]; then
    for t in "${targets[@]}"; do
        bin="$build_dir/bin/$t"
        [ -x "$bin" ] || { echo "FAIL $t: $bin is not built"; failed=1; continue; }
        log="$work/$t.smoke.log"
        n=$(ls "$here/corpus/$t" | wc -l)
        if "$bin" -runs=0 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$work/$t-" "$here/corpus/$t" >"$log" 2>&1; then
            echo "ok   $t: $n inputs replayed"
        else
            echo "FAIL $t: replaying tests/fuzz/corpus/$t failed; see $log"
            grep -E "^==[0-9]+==ERROR|^==FINDING==|runtime error|Test unit written" "$log" | head -5
            failed=1
        fi
    done
    exit $failed
fi

printf '%-22s %12s %9s %9s %8s %s\n' target executions exec/s new_units cov crashes
for t in "${targets[@]}"; do
    bin="$build_dir/bin/$t"
    [ -x "$bin" ] || { echo "$t: $bin is not built" >&2; failed=1; continue; }
    dir="$work/$t"
    if [ "$continue" = 1 ] && [ -d "$dir/corpus" ]; then
        rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* "$dir"/slow-unit-*
    else
        rm -rf "$dir"
        mkdir -p "$dir/corpus"
    fi
    cp -n "$here/corpus/$t/"* "$dir/corpus/"
    log="$dir/fuzz.log"
    "$bin" "$dir/corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -dict="$(dict_of "$t")" -artifact_prefix="$dir/" >"$log" 2>&1
    rc=$?
    stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
    execs=$(stat number_of_executed_units)
    rate=$(stat average_exec_per_sec)
    added=$(stat new_units_added)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
    artifacts=$(ls "$dir" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
    crashes=$(ls "$dir" | grep -cE '^(crash|leak|timeout|oom)-' || true)
    printf '%-22s %12s %9s %9s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${added:-?}" "${cov:-?}" "$crashes"
    if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
        failed=1
        for a in $artifacts; do
            echo "    $(echo "$a" | cut -d- -f1): $dir/$a"
        done
        grep -E "^==[0-9]+==ERROR|^==FINDING==|runtime error" "$log" | head -3 | sed 's/^/    /'
        echo "    log: $log"
    elif [ "$keep" = 0 ]; then
        rm -rf "$dir/corpus"
    fi
done
exit $failed
