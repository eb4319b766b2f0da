/* The two-node leg's control (ci/two_nodes.sh): a deliberately broken node detection. Preloaded
 * into the ranks (LD_PRELOAD), it answers MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) with one
 * communicator per rank, as if every rank were on its own node; the `topology` check must then
 * fail. Other split types go to the library (PMPI). */
#include <mpi.h>

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* out) {
  int rank;
  if (type != MPI_COMM_TYPE_SHARED) return PMPI_Comm_split_type(comm, type, key, info, out);
  PMPI_Comm_rank(comm, &rank);
  return PMPI_Comm_split(comm, rank, key, out);
}
