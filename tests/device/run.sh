#!/usr/bin/env bash
# issue 34's GPU checks in one call on a lent H200 (docs/hf-models.md, "GPU checks"): builds the `cli` preset and
# hf_device_checks against the pip wheel's CUDA LibTorch, then runs tests/device/hf_checks.py (parity with
# transformers on the CPU and CUDA in float32 and bfloat16, LoRA gradients and adapters against peft, generation and
# update speed at Qwen2.5-0.5B's shape against transformers and PyTorch, goldens for the CPU replay test).
#
# Before the call, HERE, in the checkout that the device tool sends (the session's own): tests/device/prepare.sh
# (fills the ignored .devdeps/ with Debian 12 packages, ~16 MiB). Then one call of the device tool:
#
#   run(command="bash tests/device/run.sh", carry=[".devdeps"], timeout_s=540)
#
# The script keeps itself under CREDITLAB_DEVICE_BUDGET seconds (default 470, about 8 minutes): each stage gets a
# `timeout` from what is left, and the checks run even when the build fails (the C++ ones then FAIL as not built).
# Everything lands in $OUT (at most 8 files come back): log.txt (all output), build.log (configure and build),
# figures.json, goldens.tar.gz, gpu-memory.csv (nvidia-smi every 0.5 s) and summary.txt. The last lines printed
# are the summary. Commit goldens.tar.gz as tests/learn/data/hf_goldens.tar.gz (tst_learn_hf_goldens replays it).
#
# Unpacked packages go to a prefix under $CREDITLAB_DEVICE_WORK, never to /. Their libraries are found by the C++
# programs alone (LD_LIBRARY_PATH in hf_checks.py's subprocesses); Python and the compiler keep the machine's own.
#
# Stage `nccl` (issue 36; last, and only when at least 150 s are left, so it never takes time from the checks):
# bench_allreduce --cuda, built in its own folder ($build-nccl, NCCL_INCLUDE_DIR from pip's nvidia-nccl) so that a
# failure there cannot touch the main build: the 135M shape's step on one GPU without a communicator and with a
# one-rank NCCL allreduce of its gradients (TARGETS.md: <= 3%). Its figures go to $OUT/nccl.txt. Alone:
#   run(command="CREDITLAB_DEVICE_STAGES='unpack nccl' bash tests/device/run.sh", carry=[".devdeps"], timeout_s=400)
#
# For a local rehearsal of the first stages (no GPU needed):
#   CREDITLAB_DEVICE_STAGES="unpack configure" CREDITLAB_TORCH_PREFIX= OUT=/tmp/out bash tests/device/run.sh
set -uo pipefail # not -e: every stage runs and reports

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
start=$(date +%s)
budget=${CREDITLAB_DEVICE_BUDGET:-470}
stages=${CREDITLAB_DEVICE_STAGES:-"unpack configure build checks nccl"}
work=${CREDITLAB_DEVICE_WORK:-/tmp/creditlab-device}
build=${CREDITLAB_DEVICE_BUILD:-build/cli}
OUT=${OUT:-$root/device-out}
mkdir -p "$OUT" "$work"
exec > >(tee -a "$OUT/log.txt") 2>&1

prefix=$work/prefix
libdirs=$prefix/usr/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu
declare -A took=()

left() { echo $((budget - ($(date +%s) - start))); }
# stage NAME SECONDS-WANTED: the seconds it may take (what it wants, within what is left less a reserve for the rest)
allow() {
    local want=$1 reserve=$2 l
    l=$(($(left) - reserve))
    ((l < want)) && want=$l
    ((want < 5)) && want=5
    echo "$want"
}
has_stage() { [[ " $stages " == *" $1 "* ]]; }
note() { echo "== [$(date +%H:%M:%S), $(($(date +%s) - start)) s] $*"; }

note "CreditLab GPU checks at $(git rev-parse --short HEAD 2>/dev/null || echo '?'); stages: $stages; budget ${budget} s"

# GPU memory over the whole run, for peaks the allocator does not see (the CUDA context) and as a fallback.
sampler=
if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L
    nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv,noheader -lms 500 >"$OUT/gpu-memory.csv" &
    sampler=$!
fi
cleanup() { [[ -n $sampler ]] && kill "$sampler" 2>/dev/null; }
trap cleanup EXIT
python3 - <<'EOF' || true
import importlib, sys
print("python", sys.version.split()[0], sys.executable)
for name in ("torch", "transformers", "peft", "safetensors", "tokenizers"):
    try:
        m = importlib.import_module(name)
        print(name, getattr(m, "__version__", "?"))
    except Exception as e:
        print(name, "MISSING", e)
EOF
for tool in cmake ninja g++ nvcc; do printf '%-6s %s\n' "$tool" "$(command -v $tool || echo missing)"; done

# --- unpack: the carried Debian packages into a prefix ----------------------------------------------------------------
if has_stage unpack; then
    t0=$(date +%s)
    note "unpack .devdeps into $prefix"
    rm -rf "$prefix" && mkdir -p "$prefix" "$work/bin"
    n=0
    for deb in .devdeps/*.deb; do
        [[ -e $deb ]] || { echo "no .devdeps/*.deb: run tests/device/prepare.sh here and carry .devdeps"; break; }
        dpkg -x "$deb" "$prefix" && n=$((n + 1))
    done
    # Debian 12 still ships some libraries in /lib, with absolute links to them (libz.so -> /lib/.../libz.so.1.2.13).
    while IFS= read -r link; do
        target=$(readlink "$link")
        [[ -e $prefix$target ]] && ln -sfn "$prefix$target" "$link"
    done < <(find "$prefix" -type l -lname '/*')
    # pkg-config: the carried pkgconf, seeing only the carried .pc files, their paths moved into the prefix.
    cat >"$work/bin/pkg-config" <<EOF
#!/bin/sh
export LD_LIBRARY_PATH="$libdirs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export PKG_CONFIG_LIBDIR="$prefix/usr/lib/x86_64-linux-gnu/pkgconfig:$prefix/usr/share/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$prefix" PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
exec "$prefix/usr/bin/pkgconf" "\$@"
EOF
    chmod +x "$work/bin/pkg-config"
    echo "unpacked $n packages; pkg-config: $("$work/bin/pkg-config" --cflags --libs oniguruma libutf8proc cpp-httplib 2>&1)"
    took[unpack]=$(($(date +%s) - t0))
fi

# --- configure: the cli preset against the wheel's LibTorch ----------------------------------------------------------
configured=0
if has_stage configure || has_stage nccl; then
    torch_prefix=${CREDITLAB_TORCH_PREFIX-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)}
    [[ -d /usr/local/cuda/bin ]] && export PATH=$PATH:/usr/local/cuda/bin
    export PATH=$PATH:$prefix/usr/bin # the carried ninja, only if the machine has none
    link="-Wl,-rpath-link,$prefix/usr/lib/x86_64-linux-gnu -Wl,-rpath-link,$prefix/lib/x86_64-linux-gnu"
fi
if has_stage configure; then
    t0=$(date +%s)
    note "configure $build (LibTorch from ${torch_prefix:-the system})"
    if timeout "$(allow 150 300)" cmake --preset cli -B "$build" \
        -DCMAKE_PREFIX_PATH="$prefix/usr${torch_prefix:+;$torch_prefix}" \
        -DPKG_CONFIG_EXECUTABLE="$work/bin/pkg-config" \
        -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
        -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
        -DCMAKE_EXE_LINKER_FLAGS="$link" -DCMAKE_SHARED_LINKER_FLAGS="$link" -DCMAKE_MODULE_LINKER_FLAGS="$link" \
        >"$OUT/build.log" 2>&1; then
        configured=1
        grep -E "Found|CREDITLAB_HF_DEVICE_CUDA_STATS|Torch|CUDA" "$OUT/build.log" | head -30
    else
        echo "configure FAILED; the end of build.log:"
        tail -40 "$OUT/build.log"
    fi
    # What was found where (each should be inside the prefix or the wheel).
    grep -E "^(SQLite3_LIBRARY|CURL_LIBRARY_RELEASE|OPENSSL_SSL_LIBRARY|spdlog_DIR|yaml-cpp_DIR|CLI11_DIR|Torch_DIR|pkgcfg_lib_ONIGURUMA_onig)" \
        "$build/CMakeCache.txt" 2>/dev/null
    took[configure]=$(($(date +%s) - t0))
fi

# --- build: only the programs the checks run -------------------------------------------------------------------------
if has_stage build && ((configured)); then
    t0=$(date +%s)
    jobs=$(nproc 2>/dev/null || echo 16)
    note "build creditlab-cli and hf_device_checks, -j$jobs"
    if timeout "$(allow 300 200)" cmake --build "$build" -j "$jobs" --target creditlab-cli hf_device_checks -- -k 0 \
        >>"$OUT/build.log" 2>&1; then
        echo "build OK"
    else
        echo "build FAILED or timed out; the errors:"
        grep -E "error|FAILED" "$OUT/build.log" | head -40
    fi
    for f in "$build/bin/creditlab-cli" "$build/bin/libcreditlab_cli_learn.so" "$build/bin/hf_device_checks"; do
        [[ -e $f ]] && echo "built $f ($(du -h "$f" | cut -f1))" || echo "missing $f"
    done
    took[build]=$(($(date +%s) - t0))
fi

# --- checks ----------------------------------------------------------------------------------------------------------
if has_stage checks; then
    t0=$(date +%s)
    if [[ -x $build/bin/creditlab-cli ]]; then
        note "creditlab-cli doctor"
        LD_LIBRARY_PATH=$libdirs timeout 60 "$build/bin/creditlab-cli" doctor 2>&1 | head -30
    fi
    note "hf_checks.py"
    read -r -a extra <<<"${CREDITLAB_DEVICE_CHECKS_ARGS:-}" # e.g. "--only speed" for a rerun
    CREDITLAB_CPP_LD_LIBRARY_PATH=$libdirs PYTHONUNBUFFERED=1 timeout "$(allow 400 15)" \
        python3 tests/device/hf_checks.py --cli "$build/bin/creditlab-cli" --checks "$build/bin/hf_device_checks" \
        --out "$OUT" --work "$work/checks" "${extra[@]}"
    rc=$?
    ((rc == 124)) && echo "hf_checks.py ran out of time; figures.json holds what it measured"
    took[checks]=$(($(date +%s) - t0))
fi

# --- nccl: bench_allreduce --cuda in its own build folder (issue 36) ----------------------------------------------------
if has_stage nccl; then
    t0=$(date +%s)
    if (($(left) < 150)); then
        note "nccl skipped: $(left) s left (wants 150); run it alone with CREDITLAB_DEVICE_STAGES='unpack nccl'"
    else
        (
            nccl_include=$(python3 -c 'import os, nvidia.nccl as n; print(os.path.join(list(n.__path__)[0], "include"))' 2>/dev/null)
            note "nccl: configure and build bench_allreduce in $build-nccl (NCCL_INCLUDE_DIR=${nccl_include:-not found})"
            timeout "$(allow 120 60)" cmake --preset cli -B "$build-nccl" \
                -DCMAKE_PREFIX_PATH="$prefix/usr${torch_prefix:+;$torch_prefix}" \
                -DPKG_CONFIG_EXECUTABLE="$work/bin/pkg-config" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
                -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" ${nccl_include:+-DNCCL_INCLUDE_DIR="$nccl_include"} \
                -DCMAKE_EXE_LINKER_FLAGS="$link" -DCMAKE_SHARED_LINKER_FLAGS="$link" -DCMAKE_MODULE_LINKER_FLAGS="$link" \
                >"$work/nccl-build.log" 2>&1 &&
                grep -E "Gloo|NCCL|nccl" "$work/nccl-build.log" | head -5
            timeout "$(allow 200 40)" cmake --build "$build-nccl" -j "$(nproc 2>/dev/null || echo 16)" \
                --target bench_allreduce >>"$work/nccl-build.log" 2>&1 ||
                { echo "nccl: build FAILED; the errors:"; grep -E "error|FAILED" "$work/nccl-build.log" | head -20; }
            if [[ -x $build-nccl/bin/bench_allreduce ]]; then
                LD_LIBRARY_PATH=$libdirs timeout "$(allow 120 10)" "$build-nccl/bin/bench_allreduce" --cuda 2>&1 |
                    tee "$OUT/nccl.txt"
            fi
        ) || echo "nccl stage failed (the other stages are unaffected)"
    fi
    took[nccl]=$(($(date +%s) - t0))
fi

# --- summary ---------------------------------------------------------------------------------------------------------
cleanup
{
    echo "== summary ($(($(date +%s) - start)) s in all)"
    for s in unpack configure build checks nccl; do [[ -n ${took[$s]:-} ]] && echo "stage $s: ${took[$s]} s"; done
    if [[ -s $OUT/gpu-memory.csv ]]; then
        echo "GPU memory used at most: $(awk -F', ' '{gsub(/ MiB/, "", $2); if ($2 + 0 > m) m = $2 + 0} END {print m}' "$OUT/gpu-memory.csv") MiB (nvidia-smi, whole run)"
    fi
    if [[ -s $OUT/figures.json ]]; then
        python3 - "$OUT/figures.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["status"] in ("FAIL", "INFO") or c["name"].startswith(("ratio", "parity", "lora grads")):
        v = c["value"]
        shown = "" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))
        print(f"{c['status']:4} {c['name']}: {shown}" + (f"  [{c.get('error', '')[:160]}]" if "error" in c else ""))
print(f"{d['passed']} passed, {d['failed']} failed")
EOF
    else
        echo "no figures.json"
    fi
} | tee "$OUT/summary.txt"
