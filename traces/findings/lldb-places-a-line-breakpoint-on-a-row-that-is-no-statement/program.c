#include <stdio.h>

__attribute__((noinline)) void note(int line, const char *what, long long n) { printf("line %d: %s %lld\n", line, what, n); }

int fib(int n) {
  if (n < 2) {
    note(7, "n", n); return n;
  }
  note(9, "n", n); int a = fib(n - 1);
  note(10, "n", n); int b = fib(n - 2);
  note(11, "n", n); return a + b;
}

int main(void) {
  printf("fib(3) = %d\n", fib(3));
  return 0;
}
