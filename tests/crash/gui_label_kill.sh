#!/usr/bin/env bash
# A label shown on screen is on disk: the real workbench under Xvfb, driven by xdotool like a person at the keyboard,
# is SIGKILLed right after labelling on the Annotate page; its database must then hold every label it showed.
#
#   tests/crash/gui_label_kill.sh build/release/bin/creditlab build/release/bin/creditlab-cli [ROUNDS]
#
# Each round starts `creditlab DB` on a private X display with a private HOME, goes to Annotate (Ctrl+8), presses a
# role key with no annotator name (the page refuses and puts the cursor in the name field), types the round's
# annotator name, clicks into the transcript and presses the round's role keys (1-4, D/E/N/R; each labels the
# current turn and moves on). Odd rounds wait 1 s (the labels are on screen; a screenshot is kept when ImageMagick's
# `import` is there) and then SIGKILL the workbench: every label must be in the database, in order. Even rounds
# SIGKILL it the moment the last key is sent: the labels that made it must be a prefix of the keys (none partial,
# none out of order). After every round: PRAGMA integrity_check is ok and the earlier rounds' labels are unchanged.
# Exit status: 0 passed, 1 failed, 77 skipped (no Xvfb, xdotool or sqlite3).
set -uo pipefail

gui=${1:?usage: gui_label_kill.sh GUI CLI [ROUNDS]}
cli=${2:?usage: gui_label_kill.sh GUI CLI [ROUNDS]}
rounds=${3:-4}
for tool in Xvfb xdotool sqlite3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed"
        exit 77
    fi
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/creditlab-guikill-XXXXXX")
xpid=""
gpid=""
failed=0
cleanup() {
    [ -n "$gpid" ] && kill -9 "$gpid" 2>/dev/null
    [ -n "$xpid" ] && kill "$xpid" 2>/dev/null
    wait 2>/dev/null
    if [ "$failed" = 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept: $work"; fi
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    failed=1
}

# A private display (Xvfb picks a free number and writes it to fd 3) and a private home: no settings of anyone's.
# -noreset: by default the X server resets when its last set-up client leaves, and the reset closes every connection
# still in its setup handshake. Between rounds the only set-up clients are the xdotool polls, so a workbench that
# connected a moment before a poll exited was cut off ("could not connect to display") once in a few dozen rounds
# under load. A socket held half-open across one xdotool call shows it every time: closed by default, kept with
# -noreset.
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xpid=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || { echo "FAIL: Xvfb did not start: $(tail -3 "$work/xvfb.log")"; failed=1; exit 1; }
export DISPLAY=":$(head -1 "$work/display")"
mkdir -p "$work/home" "$work/config" "$work/data" "$work/cache" "$work/runtime"
chmod 700 "$work/runtime"
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" \
    XDG_RUNTIME_DIR="$work/runtime" QT_QPA_PLATFORM=xcb LC_ALL=C.UTF-8

db="$work/runs.db"
"$cli" import "$root/resources/samples/household-sample.jsonl" --db "$db" --name "gui kill test" >"$work/import.log" 2>&1 \
    || { fail "import: $(tail -3 "$work/import.log")"; exit 1; }

role_of() {
    case "$1" in 1 | d) echo D ;; 2 | e) echo E ;; 3 | n) echo N ;; 4 | r) echo R ;; esac
}
labels_of() { # the roles annotator $1 gave, in queue order (trajectory, then turn)
    sqlite3 "$db" "SELECT group_concat(role, '') FROM (SELECT h.role FROM human_label h JOIN trajectory t ON \
t.id = h.trajectory_id WHERE h.annotator = '$1' ORDER BY t.ord, h.idx)"
}
everything() { sqlite3 "$db" "SELECT trajectory_id, idx, annotator, role, created_at FROM human_label ORDER BY 1, 2, 3"; }

key_sets=("1 2 3 4" "d e n r 1 2" "4 3 2 1 r" "n n e d")
passed=0
for round in $(seq 1 "$rounds"); do
    keys=${key_sets[$(((round - 1) % ${#key_sets[@]}))]}
    annotator="tester$round"
    expected=""
    for k in $keys; do expected+=$(role_of "$k"); done
    before=$(everything)
    "$gui" "$db" >"$work/gui-$round.log" 2>&1 &
    gpid=$!
    window=""
    for _ in $(seq 300); do
        window=$(xdotool search --onlyvisible --pid "$gpid" 2>/dev/null | tail -1)
        [ -n "$window" ] && break
        kill -0 "$gpid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$window" ]; then
        xstate="Xvfb is running"
        kill -0 "$xpid" 2>/dev/null || xstate="Xvfb has exited: $(tail -3 "$work/xvfb.log")"
        fail "round $round: the workbench showed no window ($xstate): $(tail -3 "$work/gui-$round.log")"
        break
    fi
    sleep 1.5 # the first paint and the Runs page's loading
    xdotool windowfocus --sync "$window"
    xdotool key ctrl+8 # Annotate
    sleep 1.5          # the run's trajectories load
    xdotool key d      # no annotator yet: refused, and the cursor goes to the name field
    sleep 0.3
    xdotool type --delay 15 "$annotator"
    sleep 0.3
    eval "$(xdotool getwindowgeometry --shell "$window")"
    xdotool mousemove --window "$window" $((WIDTH / 6)) $((HEIGHT * 55 / 100)) click 1 # into the transcript
    sleep 0.3
    # shellcheck disable=SC2086
    xdotool key --delay 60 $keys
    if [ $((round % 2)) = 1 ]; then
        sleep 1 # on screen now
        command -v import >/dev/null 2>&1 && import -window root "$work/round-$round.png" 2>/dev/null
        mode="after the labels were shown"
    else
        mode="the moment the last key was sent"
    fi
    kill -9 "$gpid"
    wait "$gpid" 2>/dev/null
    gpid=""
    integrity=$(sqlite3 "$db" "PRAGMA integrity_check" 2>&1)
    [ "$integrity" = ok ] || fail "round $round: PRAGMA integrity_check: $integrity"
    got=$(labels_of "$annotator")
    after=$(everything)
    earlier=$(echo "$after" | grep -v "|$annotator|" || true)
    [ "$earlier" = "$before" ] || fail "round $round: the earlier rounds' labels changed"
    if [ $((round % 2)) = 1 ]; then
        [ "$got" = "$expected" ] || fail "round $round: keys '$keys' were shown as $expected, the database after \
SIGKILL ($mode) holds '$got'"
    else
        case "$expected" in "$got"*) ;; *) fail "round $round: the database holds '$got', not a prefix of $expected" ;; esac
    fi
    echo "round $round: keys '$keys' -> labels '$got' of '$expected' on disk after SIGKILL $mode"
    [ "$failed" = 0 ] && passed=$((passed + 1))
done
echo "$passed passed, $((rounds - passed)) failed"
[ "$failed" = 0 ]
