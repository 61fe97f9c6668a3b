// collectivize-cc: use as CC= in place of mpicc (see Wrapper.h).
#include "collectivize/instrument/Wrapper.h"

int main(int argc, char **argv) {
  return cz::instrument::wrapperMain(argc, argv, cz::instrument::WrapperLanguage::C);
}
