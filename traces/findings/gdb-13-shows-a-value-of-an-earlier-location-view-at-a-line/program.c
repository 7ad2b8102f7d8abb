#include <stdio.h>

struct box {
  int lo;
  int hi;
};

static void grow(struct box *b) {
  b->lo -= 1;
  b->hi += 1;
}

int main(void) {
  struct box b = {0, 3};
  grow(&b);
  printf("%d %d\n", b.lo, b.hi);
  return 0;
}
