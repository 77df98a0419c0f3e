#!/usr/bin/env bash
# The one-decoder measurements of issue 34 (docs/benchmarks.md, "One decoder"), with the shipped configs and no
# hand-set variables, one run at a time:
#   1. household-quick.yaml per seed: wall time and eval success after SFT and at the end (target: within 5 minutes
#      and rising);
#   2. the learning check through the Hugging Face path: that run's SFT policy exported (`model export --checkpoint 0`:
#      a Llama folder with CreditLab's tokenizer and chat template), loaded back with policy.pretrained
#      (policy.finetune=full, no SFT) and trained by the same RL; its first eval must equal the SFT eval of step 1
#      (the same weights and, token for token, the same episodes);
#   3. household-sft.yaml per seed: the greedy eval success after SFT on 200 held-out tasks (target: mean >= 30%).
# Usage: tests/learning/one_decoder/run.sh BUILD_DIR OUT_DIR [SEEDS...]   (default seeds 0 1 2)
# Each run's log is OUT_DIR/<name>-<seed>.log; the figures are appended to OUT_DIR/figures.txt as they come.
set -euo pipefail
build=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
[ $# -gt 0 ] && seeds=("$@") || seeds=(0 1 2)
cli="$build/bin/creditlab-cli"
src=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out"
figures="$out/figures.txt"

# The eval successes of a run's log ("eval success X" after SFT, then "eval X" every eval.every iterations).
evals() { grep -oE 'eval( success)? [0-9.]+' "$1" | grep -oE '[0-9.]+$' | tr '\n' ' '; }

# train LABEL LOG ARGS...: one `creditlab-cli train` with ARGS into LOG, then LABEL's wall time and evals in figures.
train() {
    local label=$1 log=$2 start
    shift 2
    start=$(date +%s)
    "$cli" train "$@" >"$log" 2>&1
    echo "$label: wall $(($(date +%s) - start))s; evals $(evals "$log")" | tee -a "$figures"
}

for seed in "${seeds[@]}"; do
    db="$out/quick-$seed.db"
    rm -rf "$db" "$out/sft-$seed"
    train "household-quick seed $seed" "$out/quick-$seed.log" \
        --config "$src/resources/configs/household-quick.yaml" --set seed="$seed" --db "$db"
    "$cli" model export --db "$db" --run 1 --checkpoint 0 --output "$out/sft-$seed" >>"$out/quick-$seed.log" 2>&1
    train "through policy.pretrained seed $seed" "$out/through-hf-$seed.log" \
        --config "$src/resources/configs/household-quick.yaml" --set seed="$seed" \
        --set policy.pretrained="$out/sft-$seed" --set policy.finetune=full --set sft.epochs=0 \
        --set sft.expert_episodes=0 --set sft.noisy_episodes=0 --db "$db"
done

for seed in "${seeds[@]}"; do
    rm -f "$out/household-sft-$seed.db"
    train "household-sft seed $seed" "$out/household-sft-$seed.log" \
        --config "$src/resources/configs/household-sft.yaml" --set seed="$seed" --db "$out/household-sft-$seed.db"
done
