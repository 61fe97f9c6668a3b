// SourceText.h: the text of the parsed file behind AST nodes, as written
// (macro uses as spelled at the use), and byte positions in it.
#pragma once

#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Preprocessor.h"

namespace cz::rewrite {

// Source text and positions in the file of the region (expansion locations).
class SourceText {
public:
  // pp: to tell a macro name spelled in a #define from a macro parameter.
  SourceText(clang::ASTContext &ctx, clang::Preprocessor *pp = nullptr);
  // Token range as written; with the statement, its AST rendering is the
  // fallback when the text in a macro body names macro parameters.
  std::string of(clang::SourceRange range, const clang::Stmt *printable = nullptr) const;
  std::string of(const clang::Stmt *s) const { return of(s->getSourceRange(), s); }
  unsigned offset(clang::SourceLocation loc) const;    // in its file
  unsigned endOffset(const clang::Stmt *s) const;      // just after the last token (and its ';')
  unsigned line(clang::SourceLocation loc) const;
  std::string between(unsigned begin, unsigned end) const; // bytes of the main file
  std::string lineIndent(unsigned offset) const;
  unsigned lineStart(unsigned offset) const;
  clang::ASTContext &ctx;
  clang::Preprocessor *pp;
  clang::SourceManager &sm;
  clang::FileID file;
  llvm::StringRef buffer;
};

} // namespace cz::rewrite
