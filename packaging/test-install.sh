#!/usr/bin/env bash
# The package install test (issue 22 §6): builds the .deb from a build folder, installs it with apt-get on this
# machine, uses what it installed from outside the build tree (doctor, a short training run from the installed
# config, the installed Python client against `serve`, the workbench under xvfb), validates its desktop metadata,
# and removes it, checking that nothing of it stays behind.
#
# Usage: packaging/test-install.sh [BUILD_DIR]   (default build/release; needs root or sudo, and a built tree)
# It refuses to run when a creditlab package is installed already, so that it never removes someone's install.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build/release}" && pwd)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'test-install: FAILED: %s\n' "$*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' creditlab 2>/dev/null | grep -q 'install ok installed'; then
    fail "a creditlab package is installed already; remove it first (apt-get remove creditlab)"
fi

step "building the package in $build"
rm -f "$build"/creditlab_*.deb
(cd "$build" && cpack -G DEB > cpack.log 2>&1) || { cat "$build/cpack.log"; fail "cpack"; }
deb=$(ls "$build"/creditlab_*.deb)
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -E 'bin/|\.so|metainfo|applications|icons' | sed 's/^/  /'

work=$(mktemp -d /tmp/creditlab-install-test.XXXXXX)
cleanup() {
    cd /
    if dpkg-query -W -f='${Status}' creditlab 2>/dev/null | grep -q 'install ok installed'; then
        $sudo apt-get remove -y creditlab > /dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"   # outside the build tree: nothing here can be found relative to it

step "installing with apt-get"
start=$(date +%s)
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb" > apt-install.log 2>&1 \
    || { tail -20 apt-install.log; fail "apt-get install"; }
echo "installed in $(( $(date +%s) - start )) s"
cli=$(command -v creditlab-cli) || fail "creditlab-cli is not on PATH"
gui=$(command -v creditlab) || fail "creditlab is not on PATH"
[ "$cli" = /usr/bin/creditlab-cli ] || fail "creditlab-cli is $cli, not /usr/bin/creditlab-cli"
if ldd "$cli" | grep -Ei 'libtorch|libQt' ; then fail "creditlab-cli links LibTorch or Qt"; fi

step "creditlab-cli doctor"
"$cli" doctor | tee doctor.txt
grep -q '^LibTorch' doctor.txt || fail "doctor did not open the training module"
grep -q 'in force' doctor.txt || fail "OMP_WAIT_POLICY is not in force"

step "a short training run from the installed config"
config=/usr/share/creditlab/configs/household-tiny.yaml
[ -f "$config" ] || fail "$config is not installed"
"$cli" train --config "$config" --db runs.db --set rl.iterations=2 --set eval.every=2 | tail -3
"$cli" runs --db runs.db | tee runs.txt
grep -q 'finished' runs.txt || fail "the training run did not finish"
"$cli" experiment run triage --scale smoke --db smoke.db > /dev/null 2> experiment.err \
    || { cat experiment.err; fail "the installed experiment 'triage' is not found or fails"; }

step "the installed Python client against serve"
port=$(( 20000 + RANDOM % 20000 ))
"$cli" serve --db served.db --port "$port" --quiet > serve.out 2>&1 &
serve=$!
for _ in $(seq 50); do grep -q listening serve.out && break; sleep 0.1; done
python3 /usr/share/creditlab/clients/python/example_verl.py --url "http://127.0.0.1:$port" | tail -1
kill -INT "$serve"; wait "$serve" || true
"$cli" runs --db served.db | grep -q 'verl example' || fail "the example's run is not in the database"

step "the workbench under xvfb"
export XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/config"
xvfb-run -a -s '-screen 0 1280x720x24' timeout 15 "$gui" runs.db > gui.log 2>&1 && status=0 || status=$?
# timeout's 124: the window was still up after 15 s, as it should be
[ "$status" -eq 124 ] || { cat gui.log; fail "the workbench exited with $status before 15 s"; }
if grep -Ei 'cannot|could not|error' gui.log; then fail "the workbench complained (above)"; fi
echo "the workbench ran for 15 s and was stopped"

step "desktop metadata"
appstreamcli validate --no-net /usr/share/metainfo/io.github.creditlab.CreditLab.metainfo.xml
[ -f /usr/share/applications/creditlab.desktop ] || fail "no .desktop file"
[ -f /usr/share/icons/hicolor/scalable/apps/creditlab.svg ] || fail "no icon"

step "removing the package"
files=$(dpkg -L creditlab | grep -v '/$' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
$sudo apt-get remove -y creditlab > apt-remove.log 2>&1 || { tail -20 apt-remove.log; fail "apt-get remove"; }
left=""
for f in $files; do [ -e "$f" ] && left="$left $f"; done
[ -z "$left" ] || fail "files left behind:$left"
command -v creditlab-cli > /dev/null && fail "creditlab-cli is still on PATH"
echo "removed; none of its $(echo "$files" | wc -l) files is left"

printf '\ntest-install: all checks passed (%s)\n' "$(basename "$deb")"
