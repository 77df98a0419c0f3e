#!/bin/bash
# Two "hosts" of one data-parallel run (issue 36): rank 0 and rank 1 of `creditlab-cli train` in two network
# namespaces joined by a veth pair (10.77.0.1 and 10.77.0.2), rendezvousing at rank 0's address as across machines.
# Made by the test itself; skipped (exit 77) where namespaces cannot be made (not root, no iproute2, a container
# without CAP_NET_ADMIN).
# Usage: netns_two_hosts.sh CREDITLAB_CLI WORKDIR
set -u
cli=$1
work=$2
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip > /dev/null || skip "no ip (iproute2)"
suffix=$$
a=clA$suffix b=clB$suffix
cleanup() { ip netns del "$a" 2> /dev/null; ip netns del "$b" 2> /dev/null; }
trap cleanup EXIT
ip netns add "$a" 2> /dev/null || skip "ip netns add failed (no CAP_NET_ADMIN?)"
ip netns add "$b" || skip "ip netns add failed"
ip link add "va$suffix" type veth peer name "vb$suffix" || skip "no veth"
ip link set "va$suffix" netns "$a" && ip link set "vb$suffix" netns "$b" || exit 1
ip -n "$a" addr add 10.77.0.1/24 dev "va$suffix" && ip -n "$b" addr add 10.77.0.2/24 dev "vb$suffix" || exit 1
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "va$suffix" up && ip -n "$b" link set "vb$suffix" up || exit 1
# Each "host" has its veth and its own loopback, nothing else: the ranks reach each other over 10.77.0.0/24 only.

rm -rf "$work" && mkdir -p "$work/host0" "$work/host1"
cat > "$work/run.yaml" << 'YAML'
name: two-hosts
seed: 9
threads: 1
env: {name: household, max_steps: 5}
policy: {width: 32, layers: 1, heads: 2, context: 128, history: 1, max_action_tokens: 8}
tokenizer.episodes: 8
sft: {expert_episodes: 8, noisy_episodes: 0, epochs: 1, batch_size: 16}
rl: {iterations: 2, tasks: 2, group_size: 2, epochs: 1, minibatches: 1}
eval: {episodes: 2, every: 1}
YAML
common=(WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=10.77.0.1 MASTER_PORT=29531)
ip netns exec "$a" env "${common[@]}" RANK=0 GLOO_SOCKET_IFNAME="va$suffix" \
    timeout 240 "$cli" train -c "$work/run.yaml" --db "$work/host0/runs.db" -q --rank-timeout 60 \
    > "$work/rank0.out" 2>&1 &
r0=$!
ip netns exec "$b" env "${common[@]}" RANK=1 GLOO_SOCKET_IFNAME="vb$suffix" \
    timeout 240 "$cli" train -c "$work/run.yaml" --db "$work/host1/runs.db" -q --rank-timeout 60 \
    > "$work/rank1.out" 2>&1 &
r1=$!
wait $r0; s0=$?
wait $r1; s1=$?
echo "rank 0 exited $s0, rank 1 exited $s1"
cat "$work/rank0.out" "$work/rank1.out"
[ $s0 = 0 ] && [ $s1 = 0 ] || { echo "FAIL: a rank failed"; exit 1; }
# Rank 0's host holds the run, finished, both iterations; rank 1's host holds no database at all.
status=$(sqlite3 "$work/host0/runs.db" "SELECT status FROM run" 2>&1)
[ "$status" = finished ] || { echo "FAIL: run status '$status'"; exit 1; }
ranks=$(sqlite3 "$work/host0/runs.db" "SELECT value FROM metric WHERE iteration = 2 AND name = 'dist/ranks'")
[ "$ranks" = 2.0 ] || { echo "FAIL: dist/ranks '$ranks'"; exit 1; }
[ ! -e "$work/host1/runs.db" ] || { echo "FAIL: rank 1 wrote a database"; exit 1; }
echo "PASS: two hosts, one run, written by rank 0 alone"
