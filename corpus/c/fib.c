#include <stdio.h>

static int calls = 0;

int fib(int n) {
  calls++;
  if (n < 2) {
    return n;
  }
  int a = fib(n - 1);
  int b = fib(n - 2);
  return a + b;
}

int main(void) {
  int total = 0;
  for (int i = 0; i < 8; i++) {
    int f = fib(i);
    total += f;
  }
  printf("%d %d\n", total, calls);
  return 0;
}
