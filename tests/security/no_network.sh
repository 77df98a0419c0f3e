#!/usr/bin/env bash
# tst_no_network (issue 22 §8): CreditLab contacts no network address the user did not configure. Every command
# below runs with an LD_PRELOAD library that records each connect()/sendto() to an internet address; the log
# must stay empty. Then a run that names an endpoint (the http judge at 127.0.0.1:PORT) must be recorded going
# there and nowhere else, which shows the recorder sees what it should.
# Usage: no_network.sh CLI GUI PRELOAD_LIB CONFIG_DIR
set -u
cli=$1 gui=$2 lib=$3 configs=$4
# Under the asan preset the ASan runtime must be loaded first (SANITIZER_RUNTIME, set by tests/security/CMakeLists.txt).
lib="${SANITIZER_RUNTIME:+$SANITIZER_RUNTIME }$lib"
work=$(mktemp -d /tmp/creditlab-no-network.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
log="$work/connect.log"
export CREDITLAB_CONNECT_LOG="$log" XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen
failed=0
run() {
    : > "$log"
    LD_PRELOAD="$lib" "$@" > out.txt 2>&1
    local rc=$?
    if [ -s "$log" ]; then
        echo "FAIL: '$*' contacted the network:"; cat "$log"; failed=1
    elif [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
        echo "FAIL: '$*' exited with $rc:"; tail -5 out.txt; failed=1
    else
        echo "ok: $*"
    fi
}
run "$cli" env rollout household --policy noisy-expert --episodes 16 --group 4 --judge noisy --db runs.db
run "$cli" credit --db runs.db --run 1 --method triage
run "$cli" export --db runs.db --run 1 --output out.jsonl
run "$cli" import --db runs.db out.jsonl
run "$cli" agreement --db runs.db --run 1
run "$cli" doctor
run "$cli" train --config "$configs/household-tiny.yaml" --db runs.db --set rl.iterations=1 --quiet
run "$cli" experiment run triage --scale smoke --db smoke.db
[ -n "$gui" ] && run timeout 8 "$gui" runs.db

# The recorder works: a configured endpoint is recorded (and only it). Nothing listens on the port; the run fails.
# No SFT here (the run above covered it): under the asan preset the SFT alone takes minutes.
port=$(( 30000 + RANDOM % 20000 ))
: > "$log"
LD_PRELOAD="$lib" JUDGE_KEY=k "$cli" train --config "$configs/household-tiny.yaml" --db judge.db --set rl.iterations=1 \
    --set sft.epochs=0 --set judge.name=http --set judge.url="http://127.0.0.1:$port/v1" --set judge.model=m \
    --set judge.api_key_env=JUDGE_KEY --set judge.retries=0 --set rl.outage_wait_s=0 > judged.txt 2>&1
if ! grep -q "127.0.0.1 $port" "$log"; then
    echo "FAIL: the recorder did not see the configured judge endpoint 127.0.0.1:$port"; cat "$log"; failed=1
elif grep -v "127.0.0.1 $port" "$log" | grep -q .; then
    echo "FAIL: a run with a configured judge also contacted:"; grep -v "127.0.0.1 $port" "$log"; failed=1
else
    echo "ok: a configured judge endpoint is contacted, and nothing else"
fi
exit $failed
