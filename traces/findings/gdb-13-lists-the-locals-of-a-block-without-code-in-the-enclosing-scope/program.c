int g1, g2;
int main(void) {
  int x = 1;
  if (1) {
    x++;
  } else {
    const int *const tbl[2] = {&g1, &g2};
    x = *tbl[x];
  }
  return x;
}
