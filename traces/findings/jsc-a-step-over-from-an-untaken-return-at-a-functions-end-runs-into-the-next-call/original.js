function clamp(v) {
  var y = v * 2;
  if (y > 5) return 5;
}
clamp(1);
globalThis.first = 1;
clamp(2);
globalThis.second = 2;
