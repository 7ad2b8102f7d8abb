/* The C-Vise test's program: a csmith program of a campaign on csmith:6..45, reduced by
 * morphtrace's `reduce` for 420 s, then padded with unrelated code for C-Vise to remove again.
 * gcov counts the `break;` of `if (0)` as run once; llvm-cov counts it 0. */
#include "csmith.h"
static int8_t *func_5();
static uint32_t g_unused = 7;
static int32_t twice(int32_t x) {
  int32_t y = x * 2;
  return y;
}
int func_1() {
  int32_t t = twice(3);
  (func_5());
  return t;
}
int8_t *func_5() {
  for (;;) {
    int32_t l_259[2];
    if ((65535UL)) {
      if (0)
        break;
      break;
    }
  }
  return 0;
}
int main() {
  int32_t k;
  for (k = 0; k < 3; k++)
    g_unused += twice(k);
  printf("%d\n", func_1());
  return 0;
}
