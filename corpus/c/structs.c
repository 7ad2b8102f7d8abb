#include <stdio.h>

struct point {
  int x;
  int y;
};

struct box {
  struct point lo;
  struct point hi;
  char tag;
};

static int area(const struct box *b) {
  int w = b->hi.x - b->lo.x;
  int h = b->hi.y - b->lo.y;
  return w * h;
}

static void grow(struct box *b, int by) {
  b->lo.x -= by;
  b->lo.y -= by;
  b->hi.x += by;
  b->hi.y += by;
}

int main(void) {
  struct box b = {{0, 0}, {3, 2}, 'b'};
  int before = area(&b);
  grow(&b, 1);
  int after = area(&b);
  double ratio = (double)after / before;
  printf("%d %d %.3f %c\n", before, after, ratio, b.tag);
  return 0;
}
