// rewriter_arithmetic_test.cpp: the rewriter's evaluation of the program's
// integer expressions (counts, offsets, partners). A result the expression
// would overflow is refused, never wrapped into a count that a patch could
// then carry.
#include <climits>

#include <gtest/gtest.h>

#include "AstQueries.h"

using cz::rewrite::integerArithmetic;
using namespace clang;

TEST(RewriterArithmetic, OrdinaryValues) {
  long out = 0;
  ASSERT_TRUE(integerArithmetic(BO_Mul, 4, 3, out));
  EXPECT_EQ(out, 12);
  ASSERT_TRUE(integerArithmetic(BO_Xor, 5, 1, out));
  EXPECT_EQ(out, 4);
  ASSERT_TRUE(integerArithmetic(BO_Shl, 1, 40, out));
  EXPECT_EQ(out, 1L << 40);
  ASSERT_TRUE(integerArithmetic(BO_Shr, 64, 3, out));
  EXPECT_EQ(out, 8);
}

TEST(RewriterArithmetic, OverflowIsNoValue) {
  long out = 7;
  EXPECT_FALSE(integerArithmetic(BO_Add, LONG_MAX, 1, out));
  EXPECT_FALSE(integerArithmetic(BO_Sub, LONG_MIN, 1, out));
  EXPECT_FALSE(integerArithmetic(BO_Mul, LONG_MAX / 2 + 1, 2, out));
  EXPECT_FALSE(integerArithmetic(BO_Div, LONG_MIN, -1, out));
  EXPECT_FALSE(integerArithmetic(BO_Rem, LONG_MIN, -1, out));
  EXPECT_FALSE(integerArithmetic(BO_Shl, LONG_MAX / 2 + 1, 1, out));
  EXPECT_FALSE(integerArithmetic(BO_Shl, 1, 62, out));
  EXPECT_FALSE(integerArithmetic(BO_Div, 1, 0, out));
}
