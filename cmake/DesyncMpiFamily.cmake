# desync_MPI_FAMILY: openmpi, mpich or other, from the launcher's --version (Open MPI: "Open MPI"
# or "OpenRTE"; MPICH's Hydra: "HYDRA"). Only the tests use it: the transport variables they set
# (Open MPI's OMPI_MCA_btl_*, MPICH's MPIR_CVAR_* and UCX_*) and the launcher's binding flags differ
# by family; desync itself asks the library at run time (record/mpi_library.hpp).
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _desync_mpiexec_version
                ERROR_VARIABLE _desync_mpiexec_version)
if(_desync_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(desync_MPI_FAMILY openmpi)
elseif(_desync_mpiexec_version MATCHES "HYDRA|MPICH")
  set(desync_MPI_FAMILY mpich)
else()
  set(desync_MPI_FAMILY other)
endif()
message(STATUS "desync: MPI family ${desync_MPI_FAMILY} (${MPIEXEC_EXECUTABLE})")
