// collectivize-c++: use as CXX= in place of mpicxx (see Wrapper.h).
#include "collectivize/instrument/Wrapper.h"

int main(int argc, char **argv) {
  return cz::instrument::wrapperMain(argc, argv, cz::instrument::WrapperLanguage::Cxx);
}
