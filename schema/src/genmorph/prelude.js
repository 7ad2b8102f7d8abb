// morphtrace's relation helpers: Table I's operators with exactly the semantics the analyzer's
// search uses (analyzer/src/genmorph/tree.rs), so that a relation judged there judges the same
// here. Numbers: undefined is NaN, null is 0. Sequences: strings are UTF-16 code units, arrays
// their elements (booleans as 0/1). Comparisons have a relative tolerance of 1e-9, and NaN
// equals NaN. Division by zero gives 1 (protected division). Indices are Python's.
const __mt = (() => {
  const TOLERANCE = 1e-9;
  const num = (v) => (typeof v === 'number' ? v : v === null ? 0 : NaN);
  const bool = (v) => v === true;
  const units = (v) => {
    if (typeof v === 'string') {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = v.charCodeAt(i);
      return out;
    }
    if (Array.isArray(v)) {
      return v.map((x) => (typeof x === 'number' ? x : typeof x === 'boolean' ? +x : NaN));
    }
    return [];
  };
  // A sequence operation that keeps strings strings and arrays arrays.
  const onSeq = (v, f) => {
    if (typeof v === 'string') return f(v.split('')).join('');
    if (Array.isArray(v)) return f(v.slice());
    return f([]);
  };
  const close = (a, b) => {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (a === b) return true;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
    return Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
  };
  const pyIndex = (len, i) => {
    if (!Number.isFinite(i)) return -1;
    i = Math.trunc(i);
    const j = i < 0 ? len + i : i;
    return j >= 0 && j < len ? j : -1;
  };
  const seqEq = (x, y) => {
    const a = units(x);
    const b = units(y);
    return a.length === b.length && a.every((v, i) => close(v, b[i]));
  };
  const same = (a, b) => {
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((v, i) => same(v, b[i]));
    }
    return Object.is(a, b);
  };
  return {
    add: (a, b) => num(a) + num(b),
    sub: (a, b) => num(a) - num(b),
    mul: (a, b) => num(a) * num(b),
    div: (a, b) => (num(b) === 0 ? 1 : num(a) / num(b)),
    abs: (a) => Math.abs(num(a)),
    eq: (a, b) => close(num(a), num(b)),
    ne: (a, b) => !close(num(a), num(b)),
    lt: (a, b) => num(a) < num(b) && !close(num(a), num(b)),
    gt: (a, b) => num(a) > num(b) && !close(num(a), num(b)),
    le: (a, b) => num(a) < num(b) || close(num(a), num(b)),
    ge: (a, b) => num(a) > num(b) || close(num(a), num(b)),
    str: (a) => String(num(a)),
    and: (p, q) => bool(p) && bool(q),
    or: (p, q) => bool(p) || bool(q),
    xor: (p, q) => bool(p) !== bool(q),
    iff: (p, q) => bool(p) === bool(q),
    implies: (p, q) => !bool(p) || bool(q),
    not: (p) => !bool(p),
    length: (s) => units(s).length,
    sum: (s) => units(s).reduce((x, y) => x + y, 0),
    seqEq,
    seqNe: (x, y) => !seqEq(x, y),
    flip: (s) => onSeq(s, (a) => a.reverse()),
    remove: (s, i) => onSeq(s, (a) => {
      const j = pyIndex(a.length, num(i));
      if (j >= 0) a.splice(j, 1);
      return a;
    }),
    truncate: (s, k) => onSeq(s, (a) => {
      const n = num(k);
      const m = Number.isNaN(n) ? 0 : Math.max(Math.trunc(n), 0);
      return m < a.length ? a.slice(0, m) : a;
    }),
    // The input relations' equality: Object.is, element-wise on arrays.
    same,
  };
})();
