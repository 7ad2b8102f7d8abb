int main(int argc, char **argv) {
  int x = 0;
  if (argc == 2) x = 1;
  x += 2;
  x += 3;
  return x - 5;
}
