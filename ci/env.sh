# Sourced by the ci/ scripts: where the dependencies are and how mpiexec is called here.
# MPI launcher flags are configuration, never code. Open MPI (the default): root needs
# --allow-run-as-root, and more ranks than cores needs --oversubscribe. MPICH's Hydra launcher
# (DESYNC_MPI=mpich, preset mpich-release) runs as root and oversubscribes without flags, and
# rejects Open MPI's.
preflags=()
if [ "${DESYNC_MPI:-openmpi}" = openmpi ]; then
  preflags+=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && preflags+=(--allow-run-as-root)
fi
DESYNC_MPIEXEC_PREFLAGS=$(IFS=';'; echo "${preflags[*]}")
export DESYNC_MPIEXEC_PREFLAGS
# Kokkos' OpenMP backend warns without it; ranks may share cores here, so threads stay unbound.
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
DESYNC_PYTHON=${DESYNC_PYTHON:-/usr/bin/python3}
