#!/bin/bash
# One process against train --nproc 2 on household-tiny (this 2-core machine); per-iteration wall time from the DB.
set -e
B=${CREDITLAB_CLI:-build/release/bin/creditlab-cli}; B=$(realpath "$B")
C=$(realpath resources/configs/household-tiny.yaml)
W=${TMPDIR:-/tmp}/dpbench; rm -rf $W; mkdir -p $W; cd $W
S="--set rl.iterations=8 --set sft.epochs=1 --set eval.every=100 --set eval.episodes=0 --set rl.tasks=4 -q"
run() { local name=$1; shift; local t0=$(date +%s.%N); $B train -c $C $S --db $name.db "$@" > $name.out 2>&1; local t1=$(date +%s.%N);
  echo "$name wall $(echo "$t1 - $t0" | bc) s; RL iteration median $(sqlite3 $name.db "select value from metric where name='time/total_s' and iteration>0 order by value" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s; SFT $(sqlite3 $name.db "select printf('%.1f', value) from metric where name='time/sft_s'") s"; }
uptime
run one-1thread --set threads=1
run one-2threads --set threads=2
run two-ranks --nproc 2
uptime
