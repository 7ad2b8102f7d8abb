function f(a) {
  try {
    throw { code: a };
  } catch (e) {
    return e.code;
  }
}
f(1);
