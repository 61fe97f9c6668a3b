// buffers.h: datatypes under test, payloads and the byte-for-byte comparison.
//
// Receive buffers are prefilled with a position-dependent sentinel, the same
// for the reference (the MPI library's collective) and the candidate, and the
// whole buffer is compared: so a candidate that writes into a datatype's gaps,
// past the end, or to the wrong block differs from the reference somewhere.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>

namespace cztest {

using Bytes = std::vector<unsigned char>;

struct Layout {
  std::string name;
  MPI_Datatype type;
  size_t size;      // bytes of data in one element
  MPI_Aint extent;  // bytes one element spans, gaps included
};

// MPI_BYTE, MPI_INT, MPI_DOUBLE and a strided int type with holes in the
// middle and at the end. Valid after MPI_Init.
const std::vector<Layout> &allLayouts();
const Layout &layoutNamed(const std::string &name);

// Elements needed to carry at least `bytes` bytes (0 for 0).
int countFor(size_t bytes, const Layout &layout);

// Rank-, salt- and index-dependent bytes (salt tells calls apart).
void fillPayload(Bytes &buf, int rank, int salt);
// Prefill of receive buffers; never depends on rank, so the same everywhere.
void fillSentinel(Bytes &buf);

// "" if equal, else where the first difference is and how many bytes differ.
std::string compareBuffers(const Bytes &expected, const Bytes &actual);

// rc == MPI_SUCCESS, else "returned <code> (<cz_last_error()>)".
std::string describeReturn(int rc);

// Human-readable case description: "bruck:3 MPI_INT 1024 B (count 256)".
std::string caseName(const std::string &algorithm, const Layout &layout,
                     size_t bytes, int count);

} // namespace cztest
