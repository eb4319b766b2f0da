# The desync binary names libmpi before libsimgrid (libsimgrid also defines MPI_*: the first wins).
find_program(READELF readelf REQUIRED)
execute_process(COMMAND ${READELF} -d ${BINARY} OUTPUT_VARIABLE dyn RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "readelf -d ${BINARY} failed")
endif()
string(FIND "${dyn}" "[libmpi.so" mpi)  # Open MPI
if(mpi LESS 0)
  string(FIND "${dyn}" "[libmpich.so" mpi)  # MPICH
endif()
string(FIND "${dyn}" "[libsimgrid.so" simgrid)
message(STATUS "libmpi at ${mpi}, libsimgrid at ${simgrid}")
if(mpi LESS 0 OR simgrid LESS 0)
  message(FATAL_ERROR "expected both libmpi and libsimgrid among the NEEDED entries:\n${dyn}")
endif()
if(NOT mpi LESS simgrid)
  message(FATAL_ERROR "libsimgrid comes before libmpi: MPI_Init would be SimGrid's\n${dyn}")
endif()
