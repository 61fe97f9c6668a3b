// SourceText.cpp: the text of the parsed file behind AST nodes, as written.
#include "collectivize/rewrite/SourceText.h"

#include <cctype>

#include "clang/Lex/Lexer.h"

#include "WrapperCalls.h"

namespace cz::rewrite {

using namespace clang;

SourceText::SourceText(ASTContext &c, Preprocessor *p)
    : ctx(c), pp(p), sm(c.getSourceManager()), file(sm.getMainFileID()),
      buffer(sm.getBufferData(sm.getMainFileID())) {}

// A range that is a whole macro use (`BLOCK`) or lies in a macro argument
// reads as written at the use; one inside a macro's body (`buf` in
// `#define SEND_TO(q) MPI_Send(buf, ...)`) as spelled in the #define, which
// names the same thing at the use.
std::string SourceText::of(SourceRange range, const Stmt *printable) const {
  // An expression made for a wrapper's caller: written nowhere, its text
  // is its parts'.
  if (const std::vector<TextPiece> *pieces = printable ? madeExpressionText(printable) : nullptr) {
    std::string text;
    for (const TextPiece &p : *pieces) text += p.stmt ? of(p.stmt) : p.text;
    return text;
  }
  const LangOptions &lo = ctx.getLangOpts();
  CharSourceRange file = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range), sm, lo);
  if (file.isValid()) return Lexer::getSourceText(file, sm, lo).str();
  // Up the chain of nested expansions to the outermost macro's body
  // (MPI_COMM_WORLD is itself a macro in Open MPI's mpi.h).
  auto outermostBody = [&](SourceLocation l) {
    while (l.isMacroID()) {
      SourceLocation up = sm.getImmediateExpansionRange(l).getBegin();
      if (!up.isMacroID()) break;
      l = up;
    }
    return sm.getSpellingLoc(l);
  };
  SourceLocation b = outermostBody(range.getBegin()), e = outermostBody(range.getEnd());
  // The AST's own rendering: right, but with every macro expanded.
  std::string printed;
  if (const Stmt *s = printable) {
    llvm::raw_string_ostream os(printed);
    s->printPretty(os, nullptr, PrintingPolicy(lo));
  }
  if (sm.getFileID(b) == sm.getFileID(e) && sm.getFileOffset(b) <= sm.getFileOffset(e)) {
    std::string spelled = Lexer::getSourceText(CharSourceRange::getTokenRange(b, e), sm, lo).str();
    // Spelled in the #define: fine unless it names a macro parameter (an
    // identifier that is neither in the expression nor a macro).
    bool ok = true;
    for (size_t i = 0; i < spelled.size() && ok;) {
      if (std::isalpha((unsigned char)spelled[i]) || spelled[i] == '_') {
        size_t j = i;
        while (j < spelled.size() && (std::isalnum((unsigned char)spelled[j]) || spelled[j] == '_')) j++;
        std::string id = spelled.substr(i, j - i);
        bool inPrinted = printed.empty() || printed.find(id) != std::string::npos;
        bool isMacro = pp && pp->isMacroDefined(id);
        ok = inPrinted || isMacro;
        i = j;
      } else {
        i++;
      }
    }
    if (ok || printed.empty()) return spelled;
    return printed;
  }
  if (!printed.empty()) return printed;
  CharSourceRange r = CharSourceRange::getTokenRange(sm.getExpansionRange(range.getBegin()).getBegin(),
                                                     sm.getExpansionRange(range.getEnd()).getEnd());
  return Lexer::getSourceText(r, sm, lo).str();
}

unsigned SourceText::offset(SourceLocation loc) const {
  return sm.getFileOffset(sm.getExpansionLoc(loc));
}

unsigned SourceText::endOffset(const Stmt *s) const {
  SourceLocation last = sm.getExpansionRange(s->getEndLoc()).getEnd();
  unsigned end = sm.getFileOffset(Lexer::getLocForEndOfToken(last, 0, sm, ctx.getLangOpts()));
  unsigned i = end;
  while (i < buffer.size() && (buffer[i] == ' ' || buffer[i] == '\t')) i++;
  return i < buffer.size() && buffer[i] == ';' ? i + 1 : end;
}

unsigned SourceText::line(SourceLocation loc) const {
  return sm.getExpansionLineNumber(loc);
}

std::string SourceText::between(unsigned begin, unsigned end) const {
  if (end <= begin || end > buffer.size()) return "";
  return buffer.substr(begin, end - begin).str();
}

unsigned SourceText::lineStart(unsigned off) const {
  while (off > 0 && buffer[off - 1] != '\n') off--;
  return off;
}

std::string SourceText::lineIndent(unsigned off) const {
  unsigned s = lineStart(off), e = s;
  while (e < buffer.size() && (buffer[e] == ' ' || buffer[e] == '\t')) e++;
  return buffer.substr(s, e - s).str();
}

} // namespace cz::rewrite
