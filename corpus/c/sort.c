#include <stdio.h>

#define N 6

static void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

static void sort(int *v, int n) {
  for (int i = 1; i < n; i++) {
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      swap(&v[j - 1], &v[j]);
    }
  }
}

int main(void) {
  int v[N] = {5, 2, 9, 1, 7, 3};
  unsigned long sum = 0;
  _Bool sorted = 1;
  sort(v, N);
  for (int i = 0; i < N; i++) {
    sum += (unsigned long)v[i] * (i + 1);
    if (i > 0 && v[i - 1] > v[i]) {
      sorted = 0;
    }
  }
  printf("%lu %d\n", sum, sorted);
  return 0;
}
