// morphtrace's determinism prelude: runs as its own script before the program, so that the
// program's text and positions are untouched, and is blackboxed so that no step stops in it.
// Randomness comes from one seeded generator and time from a clock that advances 1 ms per
// reading: two runs of a program (parent and follow-up, two engines) see the same values, and a
// busy-wait on the clock still ends.
(function () {
  'use strict';
  var g = globalThis;
  var imul = Math.imul;
  var EPOCH = 1577836800000; // 2020-01-01T00:00:00Z
  var state = 0x6d6f7270 | 0;
  var ticks = 0;
  // mulberry32: small, and the same sequence on every engine.
  function next() {
    state = (state + 0x6d2b79f5) | 0;
    var t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  function tick() {
    ticks += 1;
    return ticks;
  }
  // Same attributes as the property replaced; concise methods keep the name and are not
  // constructors, like the built-ins they stand for.
  function define(obj, name, fn) {
    var d = Object.getOwnPropertyDescriptor(obj, name);
    Object.defineProperty(obj, name, {
      value: fn,
      writable: d ? !!d.writable : true,
      enumerable: d ? !!d.enumerable : false,
      configurable: true,
    });
  }
  define(Math, 'random', { random() { return next(); } }.random);

  var RealDate = g.Date;
  define(RealDate, 'now', { now() { return EPOCH + tick(); } }.now);
  // A proxy, not a subclass: instances stay plain Dates with Date.prototype.
  var FakeDate = new Proxy(RealDate, {
    construct: function (target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [EPOCH + tick()] : args, newTarget);
    },
    apply: function () {
      return new RealDate(EPOCH + tick()).toString();
    },
  });
  define(g, 'Date', FakeDate);

  var perf = g.performance;
  if (perf && typeof perf.now === 'function') {
    define(perf, 'now', { now() { return tick(); } }.now);
  }
  var proc = g.process;
  if (proc && typeof proc.hrtime === 'function') {
    var hrtime = { hrtime(prev) {
      var ns = tick() * 1e6;
      var s = Math.floor(ns / 1e9);
      var n = ns % 1e9;
      if (prev) {
        s -= prev[0];
        n -= prev[1];
        if (n < 0) { s -= 1; n += 1e9; }
      }
      return [s, n];
    } }.hrtime;
    hrtime.bigint = { bigint() { return BigInt(tick()) * 1000000n; } }.bigint;
    define(proc, 'hrtime', hrtime);
  }
  var crypto = g.crypto;
  if (crypto && typeof crypto.getRandomValues === 'function') {
    define(crypto, 'getRandomValues', { getRandomValues(a) {
      var b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (var i = 0; i < b.length; i++) b[i] = (next() * 256) | 0;
      return a;
    } }.getRandomValues);
  }
  if (crypto && typeof crypto.randomUUID === 'function') {
    define(crypto, 'randomUUID', { randomUUID() {
      var h = '';
      for (var i = 0; i < 32; i++) {
        var v = (next() * 16) | 0;
        if (i === 12) v = 4;
        if (i === 16) v = (v & 3) | 8;
        h += v.toString(16);
      }
      return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' +
        h.slice(16, 20) + '-' + h.slice(20);
    } }.randomUUID);
  }
})();

//# sourceURL=morphtrace-determinism.js
