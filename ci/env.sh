# Sourced by the ci/ scripts: where the dependencies are and how mpiexec is called here.
# MPI launcher flags are configuration, never code: root needs --allow-run-as-root with OpenMPI,
# and more ranks than cores needs --oversubscribe.
preflags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && preflags+=(--allow-run-as-root)
DESYNC_MPIEXEC_PREFLAGS=$(IFS=';'; echo "${preflags[*]}")
export DESYNC_MPIEXEC_PREFLAGS
# Kokkos' OpenMP backend warns without it; ranks may share cores here, so threads stay unbound.
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
DESYNC_PYTHON=${DESYNC_PYTHON:-/usr/bin/python3}
