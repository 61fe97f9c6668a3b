// collectivize-fc: use as FC= in place of mpif90 (see Wrapper.h).
#include "collectivize/instrument/Wrapper.h"

int main(int argc, char **argv) {
  return cz::instrument::wrapperMain(argc, argv, cz::instrument::WrapperLanguage::Fortran);
}
