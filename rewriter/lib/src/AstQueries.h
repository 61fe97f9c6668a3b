// AstQueries.h: small questions about statements and expressions that the
// region planner and the replacement builder both ask (private to the
// rewriter library).
#pragma once

#include <functional>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace cz::rewrite {

// Without parentheses, implicit and explicit casts.
const clang::Expr *strip(const clang::Expr *e);
// s and everything below it, parents first.
void forEachStmt(const clang::Stmt *s, const std::function<void(const clang::Stmt *)> &fn);
// Variables declared anywhere in s (also a range-for's loop variable).
void declaredIn(const clang::Stmt *s, std::set<const clang::VarDecl *> &out);
bool isLoop(const clang::Stmt *s);
// l OP r for the integer operators a rank or an offset is computed with
// (+ - * / %, the bit operations, comparisons); false for another operator,
// a division by zero or a shift out of range.
bool integerArithmetic(clang::BinaryOperatorKind op, long l, long r, long &out);
// The variable an assignment, ++/-- or compound assignment writes (`x = ..`
// -> x; null for `a[i] = ..`); lhsOut: the written expression, if any.
const clang::VarDecl *assignedVar(const clang::Stmt *s, const clang::Expr **lhsOut = nullptr);
bool mentions(const clang::Stmt *s, const std::set<const clang::VarDecl *> &vars);
const clang::VarDecl *referencedVar(const clang::Expr *e); // `x`, `&x`, `x[i]`, `*x`: x
std::string calleeName(const clang::CallExpr *call);
// base, or base2, base3, ...: the first that the translation unit never
// spells (no declaration, use or macro in the file or its headers), so a
// name the patch declares can neither hide nor be hidden by one of the
// program's, whatever is in scope at the patch point.
std::string unusedName(const clang::ASTContext &ctx, const std::string &base);
// Two more spaces at the start of every line.
std::string indentLines(const std::string &text);
// The function whose body holds s; null when s is in a lambda (or in no
// function).
const clang::FunctionDecl *enclosingFunction(clang::ASTContext &ctx, const clang::Stmt *s);
// Where `name` stands in `text` as a whole identifier (not part of a
// longer one), from `from` on; npos when nowhere.
size_t findWord(const std::string &text, const std::string &name, size_t from = 0);

} // namespace cz::rewrite
