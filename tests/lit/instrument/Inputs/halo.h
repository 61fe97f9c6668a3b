// halo.h: a quoted include of template.cpp, found from the original's
// directory when the instrumented copy is compiled (-iquote).
#pragma once
#include <mpi.h>

template <typename T> MPI_Datatype mpi_type();
template <> inline MPI_Datatype mpi_type<int>() { return MPI_INT; }
template <> inline MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
