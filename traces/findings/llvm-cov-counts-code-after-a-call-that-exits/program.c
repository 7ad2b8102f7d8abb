#include <stdio.h>
#include <stdlib.h>
void finish() { exit(0); }
int main() {
  finish();
  printf("");
}
