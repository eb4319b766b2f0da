#pragma once
// SymmSquareCube (papers.md E.2): D^2 and D^3 of a symmetric N x N matrix D, the products of
// density-matrix purification, on a p x p x p process mesh (algorithms original, baseline,
// optimized) or a q x q x c mesh (2.5d). One iteration is one call: D^2 and D^3 end up on mesh
// layer 0, distributed like D. Algorithms, in ssc_<name>.cpp:
//   original  (Alg. 3, GTFock): broadcasts, gemm, reduce, send D^2 to layer 0, transpose D^2,
//             broadcast, gemm, reduce, send D^3 to layer 0 (blocking MPI calls);
//   baseline  (Alg. 4): the transpose removed by reducing D^2 onto P_{i,i,k}, the two sends at
//             the end (blocking MPI calls);
//   optimized (Alg. 5): Alg. 4 with every block cut into N_DUP = [comm] communicators parts,
//             part c on the c-th duplicate of each communicator: the two first broadcasts
//             overlap, each reduce part is broadcast as soon as it is reduced, and the last
//             reduction overlaps the two block transfers (nonblocking MPI-3 collectives);
//   2.5d      (Alg. 6): D broadcast to the c = [symmsquarecube] replication layers, q / c Cannon
//             steps per layer, MPI_Allreduce of D^2 over the layers, q / c more Cannon steps, and
//             MPI_Reduce of D^3 onto layer 0; N_DUP > 1 cuts the three collectives into parts.
// Local products go through KokkosKernels' gemm (dense/gemm.hpp). The mesh runs on the active
// ranks ([placement] active_ppn; the others sleep, comm/node_layout.hpp).
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

WorkloadResult run_symmsquarecube(const Config& cfg, MPI_Comm comm);
MemoryEstimate symmsquarecube_memory(const Config& cfg, int rank, int size);

// The timeline events of an algorithm's call, before delay_end and sync_end (ssc_mesh.cpp).
std::vector<std::string> ssc_events(SscAlgorithm a);

// How each algorithm's phases add up to the study's categories (composites, MPI phases, the
// work phase): the real run's and its simulation's.
void ssc_categorize(WorkloadResult& r, SscAlgorithm a);

// The run-level metrics and report of a real run and its simulation (sim_symmsquarecube_program.cpp):
// call_time (the slowest rank's call, median over the measured calls), TFlop/s (4 N^3 per call),
// the mesh and N_DUP; max_relative_error where one was computed (null: none, a simulation).
void ssc_run_metrics(const SymmSquareCubeConfig& c, double call_time, const double* max_error, int p, int layers, int ndup,
                     WorkloadResult& r);

}  // namespace desync
