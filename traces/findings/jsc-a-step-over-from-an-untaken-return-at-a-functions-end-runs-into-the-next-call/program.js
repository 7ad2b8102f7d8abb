function clamp(v) {
 var y = v * 2;
  if (y > 5) return 5;
}
clamp(1);
clamp(2);
