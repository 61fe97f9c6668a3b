// FortranStatements.h: Fortran statements read as text for the rewriter's
// Fortran patch (FortranBcastPatch.h): one statement at a time, its
// continuation lines joined (free or fixed form), given a shape; and the
// small readings the patch needs (names compared as Fortran does, a
// comparison's operands, the program unit around a line).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

namespace cz::rewrite::fortran {

// An expression compared as Fortran does: case and blanks do not count.
std::string norm(const std::string &e);
bool isName(const std::string &e);
// A name or an integer literal.
bool isRootExpression(const std::string &e);
// Whether `code` names `word` (a whole identifier, any case).
bool mentions(const std::string &code, const std::string &word);
// A type declaration statement (`integer :: q`, `integer q, st(...)`).
bool isDeclaration(const std::string &code);

// Simple: an assignment or a print/write statement (the root's branch
// may hold some before its loop of sends).
enum class Shape { Blank, IfThen, Else, EndIf, Do, EndDo, Call, GuardedCall, Simple, Other };

struct Statement {
  Shape shape = Shape::Other;
  unsigned line = 0;       // 1-based, the statement's first line
  unsigned lastLine = 0;   // its last (continuation) line
  std::string code;        // trimmed, without comment, label or continuation marks
  std::string condition;   // IfThen, GuardedCall: inside the parentheses
  std::string var, lo, hi; // Do; Simple: var is an assignment's target
  std::string label;       // the statement's label ("20 continue")
  std::string doLabel;     // Do: the label of its last statement (`do 20 q = ...`)
  std::string why;         // Other: why it does not fit
};

// The statement holding line k (0-based) of `lines`, continuation lines
// joined; fixed: fixed form.
Statement classify(const std::vector<std::string> &lines, size_t k, bool fixed);

// `a OP b` with OP one of `ops` (e.g. "==", ".eq."), a name or a literal
// on each side: the operands, normalised.
bool comparison(const std::string &cond, std::initializer_list<const char *> ops, std::string &a,
                std::string &b);

// Line k's code as written, comment dropped; in fixed form its columns
// 1-5 (a label) and 7-72, a comment line empty.
std::string codeOf(const std::vector<std::string> &lines, size_t k, bool fixed);

// The program unit (program, subroutine, function) holding line `at`
// (0-based): [first, last] lines, its end `end`, `contains` or the file's.
void unitAround(const std::vector<std::string> &lines, bool fixed, size_t at, size_t &first, size_t &last);

} // namespace cz::rewrite::fortran
