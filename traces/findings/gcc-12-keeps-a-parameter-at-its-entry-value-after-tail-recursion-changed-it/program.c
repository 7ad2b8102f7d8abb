#include <stdio.h>

__attribute__((noinline)) void note(int line, long long n) { printf("line %d: n=%lld\n", line, n); }

int fib(int n) {
  if (n < 2) {
    note(7, n); return n;
  }
  note(9, n); int a = fib(n - 1);
  note(10, n); int b = fib(n - 2);
  return a + b;
}

int main(void) {
  printf("fib(3) = %d\n", fib(3));
  return 0;
}
