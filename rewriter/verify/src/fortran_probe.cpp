// fortran_probe.cpp: see fortran_probe.h.
#include "fortran_probe.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace cz::verify {

bool isFortranPath(const std::string &path, bool &fixedForm) {
  size_t dot = path.rfind('.'), slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  fixedForm = ext == "f" || ext == "for" || ext == "ftn" || ext == "f77";
  return fixedForm || ext == "f90" || ext == "f95" || ext == "f03" || ext == "f08";
}

namespace {

// One statement as source lines: `first` then each piece, broken after a
// piece when the line would pass the form's last column.
std::string statement(const std::string &first, const std::vector<std::string> &pieces, bool fixedForm,
                      const std::string &indent) {
  const std::string lead = fixedForm ? "      " : indent;
  const size_t limit = fixedForm ? 72 : 132;
  std::string out = lead + first;
  size_t column = out.size();
  for (const std::string &p : pieces) {
    // Free form keeps room for the ` &` that continues the line.
    size_t reserve = fixedForm ? 0 : 2;
    if (column + 1 + p.size() + reserve <= limit) {
      out += " " + p;
      column += 1 + p.size();
    } else {
      std::string next = fixedForm ? "     &  " : lead + "    ";
      out += (fixedForm ? "\n" : " &\n") + next + p;
      column = next.size() + p.size();
    }
  }
  return out + "\n";
}

} // namespace

std::string fortranProbe(const EffectSpec &e, bool fixedForm, const std::string &indent) {
  // Every name the block declares ends in `_` and starts with cz_: no
  // clash with the program's names, which the block's call still sees.
  std::string in;
  auto line = [&](const std::string &text) { return statement(in + text, {}, fixedForm, indent); };
  std::string s = line("block");
  in += "  ";
  for (const char *name : {"c_funptr", "c_ptr", "c_null_ptr", "c_char", "c_null_char", "c_associated",
                           "c_f_procpointer"})
    s += line(std::string("use, intrinsic :: iso_c_binding, only: ") + name);
  s += line("interface");
  s += line("  function cz_dlsym_(handle, name) bind(C, name='dlsym')");
  s += line("    import :: c_funptr, c_ptr, c_char");
  s += line("    type(c_ptr), value :: handle");
  s += line("    character(kind=c_char) :: name(*)");
  s += line("    type(c_funptr) :: cz_dlsym_");
  s += line("  end function");
  s += line("end interface");
  s += line("procedure(), pointer :: cz_probe_");
  s += line("type(c_funptr) :: cz_at_");
  s += statement(in + "cz_at_ = cz_dlsym_(c_null_ptr,", {"'cz_verify_effect_f' // c_null_char)"}, fixedForm, indent);
  s += line("if (c_associated(cz_at_)) then");
  s += line("  call c_f_procpointer(cz_at_, cz_probe_)");
  std::vector<std::string> args = {e.buffer + ",", e.count + ",",
                                   std::string(e.perRankBlocks ? "1" : "0") + ",", e.datatype + ",", e.comm + ",",
                                   (e.root.empty() ? std::string("-1") : e.root) + ")"};
  s += statement(in + "  call cz_probe_(" + std::to_string(e.probe) + ",", args, fixedForm, indent);
  s += line("end if");
  in.resize(in.size() - 2);
  s += line("end block");
  return s;
}

} // namespace cz::verify
