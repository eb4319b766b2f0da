#!/bin/sh
# The launcher's way onto an emulated node (ci/two_nodes.sh): Open MPI's rsh agent (plm_rsh_agent)
# is called as `node_agent.sh HOST COMMAND...`; this runs COMMAND inside HOST's network namespace
# ($DESYNC_NODES_PREFIX-HOST, made by ci/two_nodes.sh up) and its own UTS namespace named HOST,
# as ssh would run it on the node. Every step execs, so COMMAND keeps this process's pid (a
# signal sent to it reaches the launcher). Also used to start the launcher itself on node0.
set -eu
host=$1
shift
exec ip netns exec "${DESYNC_NODES_PREFIX:?set by ci/two_nodes.sh}-$host" \
  unshare --uts sh -c "hostname $host && exec $*"
