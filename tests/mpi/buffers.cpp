#include "buffers.h"

#include <cstdio>
#include <stdexcept>

#include "collectivize.h"

namespace cztest {

namespace {

// Two ints of data per element, each followed by an int-sized hole: the
// element spans 16 bytes for 8 bytes of data, so packing and gap handling are
// both exercised.
MPI_Datatype makeStridedInts() {
  MPI_Datatype vector, resized;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vector);
  MPI_Type_create_resized(vector, 0, 4 * sizeof(int), &resized);
  MPI_Type_commit(&resized);
  MPI_Type_free(&vector);
  return resized;
}

Layout describe(const char *name, MPI_Datatype type) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &extent);
  return Layout{name, type, static_cast<size_t>(size), extent};
}

} // namespace

const std::vector<Layout> &allLayouts() {
  static const std::vector<Layout> layouts = {
      describe("MPI_BYTE", MPI_BYTE),
      describe("MPI_INT", MPI_INT),
      describe("MPI_DOUBLE", MPI_DOUBLE),
      describe("strided_ints", makeStridedInts()),
  };
  return layouts;
}

const Layout &layoutNamed(const std::string &name) {
  for (const Layout &l : allLayouts())
    if (l.name == name) return l;
  throw std::invalid_argument("no layout " + name);
}

int countFor(size_t bytes, const Layout &layout) {
  return static_cast<int>((bytes + layout.size - 1) / layout.size);
}

void fillPayload(Bytes &buf, int rank, int salt) {
  for (size_t i = 0; i < buf.size(); i++)
    buf[i] = static_cast<unsigned char>(rank * 131 + salt * 29 + i * 7 +
                                        (i >> 8) * 3 + 1);
}

void fillSentinel(Bytes &buf) {
  for (size_t i = 0; i < buf.size(); i++)
    buf[i] = static_cast<unsigned char>(0xA5 ^ (i * 13));
}

std::string compareBuffers(const Bytes &expected, const Bytes &actual) {
  if (expected.size() != actual.size())
    return "buffer sizes differ (test bug)";
  size_t first = expected.size(), differing = 0;
  for (size_t i = 0; i < expected.size(); i++)
    if (expected[i] != actual[i]) {
      if (first == expected.size()) first = i;
      differing++;
    }
  if (!differing) return "";
  char text[160];
  std::snprintf(text, sizeof text,
                "%zu of %zu bytes differ; first at offset %zu: expected 0x%02x, "
                "got 0x%02x",
                differing, expected.size(), first, expected[first], actual[first]);
  return text;
}

std::string describeReturn(int rc) {
  if (rc == MPI_SUCCESS) return "";
  return "returned error " + std::to_string(rc) + " (" + cz_last_error() + ")";
}

std::string caseName(const std::string &algorithm, const Layout &layout,
                     size_t bytes, int count) {
  return algorithm + " " + layout.name + " " + std::to_string(bytes) +
         " B (count " + std::to_string(count) + ")";
}

} // namespace cztest
