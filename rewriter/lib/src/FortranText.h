// FortranText.h: Fortran source read as text, for the rewriter's Fortran
// suggestions and patches (Clang parses C and C++ only). Statements are
// joined across continuation lines (free form: `&`; fixed form: column 6),
// `!` comments are dropped outside quotes, and a `call NAME(...)`
// statement is split into its argument expressions at top-level commas.
#pragma once

#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cz::rewrite {

// Fortran sources by name: .f .for .ftn .f77 .f90 .f95 .f03 .f08, in
// either case (.F90: preprocessed).
bool isFortranSource(llvm::StringRef path);

// Fixed form by name (.f .for .ftn .f77), as gfortran decides.
bool isFixedFormSource(llvm::StringRef path);

// The lines of a text, without their line ends.
std::vector<std::string> sourceLines(const std::string &text);

// A line's code without its `!` comment (quotes respected).
std::string fortranCode(const std::string &line);

// The arguments between the '(' at `open` of `s` and its ')', trimmed;
// false when the parentheses do not balance.
bool splitFortranArguments(const std::string &s, size_t open, std::vector<std::string> &args);

// The statement holding line i (0-based) of `lines`: its lines [first,
// last] (0-based) and its code joined into one line, comments dropped
// (fixed form: continuation in column 6, code in columns 7-72; else free
// form, `&`).
std::string fortranStatementAt(const std::vector<std::string> &lines, size_t i, bool fixed, size_t &first,
                               size_t &last);

// A fixed-form comment line (C, c, * or ! in column 1).
bool isFixedFormComment(const std::string &line);

// One call statement of a Fortran source, continuation lines joined.
struct FortranCall {
  std::string name;              // "MPI_Send" as written
  std::vector<std::string> args; // argument expressions, trimmed
  unsigned firstLine = 0, lastLine = 0;
  std::string text;              // the statement's lines as written
};

// The `call NAME(...)` statement that covers `line` of `source` (fixed
// form: continuation in column 6, code in columns 7-72; else free form);
// false when that statement holds no call of an MPI routine.
bool fortranCallAt(const std::string &source, unsigned line, bool fixed, FortranCall &out);

} // namespace cz::rewrite
