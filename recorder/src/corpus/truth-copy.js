  // An instrumented copy's values, as JSON of their own type: finite numbers but -0, strings
  // of at most 64 characters without lone surrogates, booleans, null (nothing else recorded).
  const values = {};
  for (const k of Object.keys(vars)) {
    const v = vars[k];
    if (
      (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) ||
      (typeof v === "string" && v.length <= 64 && !/[\ud800-\udfff]/.test(v)) ||
      typeof v === "boolean" ||
      v === null
    ) {
      values[k] = v;
    }
  }
