#!/usr/bin/env bash
# Two emulated nodes on this one machine (issue 30; docs/install.md, "Two emulated nodes"): two
# network namespaces joined by a virtual Ethernet link (iproute2), each with its own host name
# (node0, node1) and /etc/hosts, Open MPI's launcher reaching node1 through an rsh agent that
# enters its namespaces (ci/two_nodes/node_agent.sh), TCP between the nodes and shared memory
# within each. Needs root (or CAP_SYS_ADMIN + CAP_NET_ADMIN), iproute2 and util-linux.
#   ci/two_nodes.sh BUILD_DIR        the CI leg: up, the checks (tests/two_nodes/), down
#   ci/two_nodes.sh up | down        leave them up to try things (DESYNC_NODES_PREFIX names them)
#   ci/two_nodes.sh mpirun ARGS...   Open MPI's mpirun on node0 with both nodes (after up)
# The namespaces are named $DESYNC_NODES_PREFIX-node0/-node1 (default dsync<pid> for the leg,
# dsync for up/down); everything made is removed on exit, also on failure or Ctrl-C.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
nodes=(node0 node1)
addr=(10.77.0.1 10.77.0.2)
subnet=10.77.0.0/24

up() {
  local p=$DESYNC_NODES_PREFIX i
  if ! ip netns add "$p-probe" 2>/dev/null || ! ip netns del "$p-probe"; then
    echo "ci/two_nodes.sh: cannot create a network namespace here (ip netns add needs root, or" \
         "CAP_SYS_ADMIN and CAP_NET_ADMIN, and iproute2): the two emulated nodes cannot be made" >&2
    return 1
  fi
  for i in 0 1; do
    ip netns add "$p-${nodes[$i]}"
    # ip netns exec binds /etc/netns/NS/hosts over /etc/hosts: each node resolves both names.
    mkdir -p "/etc/netns/$p-${nodes[$i]}"
    printf '127.0.0.1 localhost\n%s %s\n%s %s\n' "${addr[0]}" "${nodes[0]}" "${addr[1]}" "${nodes[1]}" \
      > "/etc/netns/$p-${nodes[$i]}/hosts"
    # and asks no name server: the host's is out of reach from the node, and every look-up of a
    # name not in hosts (Open MPI and glibc do some at start-up) would wait for its time-out
    printf 'options timeout:1 attempts:1\n' > "/etc/netns/$p-${nodes[$i]}/resolv.conf"
  done
  ip link add "$p-0" type veth peer name "$p-1"
  for i in 0 1; do
    ip link set "$p-$i" netns "$p-${nodes[$i]}"
    ip -n "$p-${nodes[$i]}" addr add "${addr[$i]}/24" dev "$p-$i"
    ip -n "$p-${nodes[$i]}" link set lo up
    ip -n "$p-${nodes[$i]}" link set "$p-$i" up
  done
  printf '%s slots=4\n%s slots=4\n' "${nodes[@]}" > "$(hostfile)"
}

down() {
  local p=$DESYNC_NODES_PREFIX n
  for n in "${nodes[@]}"; do
    ip netns pids "$p-$n" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$p-$n" 2>/dev/null || true  # takes its end of the link with it
    rm -rf "/etc/netns/$p-$n"
  done
  rm -f "$(hostfile)"
  rmdir /etc/netns 2>/dev/null || true  # only if it is empty (ours alone)
}

hostfile() { echo "${TMPDIR:-/tmp}/$DESYNC_NODES_PREFIX.hostfile"; }

# mpirun on node0 with a hostfile of both nodes (4 slots each: ranks are placed per check with --map-by ppr:N:node), TCP on the link between the nodes,
# shared memory within a node (ob1: the BTLs named, so no other transport is chosen silently).
# Both nodes share this machine's cores, so the ranks of the two together oversubscribe it while
# neither node looks full to mpirun: waiting ranks yield (mpi_yield_when_idle), as mpirun does by
# itself on one oversubscribed host; busy-polling ranks would wait for the scheduler's 4 ms ticks.
# DESYNC_NODES_BTL replaces the BTL list (e.g. tcp,self: every message over TCP).
# exec all the way: the caller's pid becomes mpirun's (SIGUSR1 to it stops the run).
launch() {
  exec "$here/two_nodes/node_agent.sh" node0 \
    "mpirun --allow-run-as-root --hostfile $(hostfile) --mca plm_rsh_agent $here/two_nodes/node_agent.sh" \
    "--mca pml ob1 --mca btl ${DESYNC_NODES_BTL:-tcp,vader,self} --mca btl_tcp_if_include $subnet" \
    "--mca oob_tcp_if_include $subnet --mca mpi_yield_when_idle 1" \
    "--bind-to none $(printf '%q ' "$@")"
}

case ${1:-} in
  up) export DESYNC_NODES_PREFIX=${DESYNC_NODES_PREFIX:-dsync}; up ;;
  down) export DESYNC_NODES_PREFIX=${DESYNC_NODES_PREFIX:-dsync}; down ;;
  mpirun) shift; export DESYNC_NODES_PREFIX=${DESYNC_NODES_PREFIX:-dsync}; launch "$@" ;;
  ""|-h|--help) sed -n '2,13p' "$0"; exit 2 ;;
  *)
    build=$(cd "$1" && pwd)
    export DESYNC_NODES_PREFIX=${DESYNC_NODES_PREFIX:-dsync$$}
    trap down EXIT
    trap 'exit 130' INT TERM
    down
    up
    python=${DESYNC_PYTHON:-/usr/bin/python3}  # Debian's, with h5py and numpy (ci/env.sh)
    checks=("$python" "$root/tests/two_nodes/check_two_nodes.py" --build "$build" --launcher "$here/two_nodes.sh mpirun")
    status=0
    "${checks[@]}" || status=1
    # The control: node detection broken on purpose (every rank its own node) must fail the checks.
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"; down' EXIT
    ${MPICC:-mpicc} -shared -fPIC -o "$scratch/split_by_rank.so" "$root/tests/two_nodes/split_by_rank.c"
    "${checks[@]}" --only topology --expect-fail topology --preload "$scratch/split_by_rank.so" || status=1
    echo "two nodes: $([ $status -eq 0 ] && echo 'every check passed' || echo 'FAILED')"
    exit $status
    ;;
esac
