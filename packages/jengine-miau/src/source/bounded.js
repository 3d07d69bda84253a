// Bounded built-ins for CommonJS packs, run before a pack's code.
//
// QuickJS checks its interrupt handler (the time cap and the host's cancel flag) only between
// bytecodes and in a few of its own loops. A C built-in that loops over a `length` the pack
// chose, such as `new Array(2 ** 32 - 1).join('')`, would run for minutes without a check. Each
// such built-in is replaced here by one that refuses, with a RangeError, a size past what the
// memory limit can hold, and that does its per-element work in JavaScript loops the interrupt
// handler sees. The originals live only in this closure, and every helper the replacements use
// is taken before the pack runs, so nothing a pack changes reaches them.
(function () {
  'use strict';
  // The largest string, in characters, and the largest buffer, in bytes: the memory limit.
  var MAX_CHARS = __MAX_CHARS__;
  // The most elements a real array can hold under the memory limit (16 bytes a value); a
  // longer `length` is holes or a made-up object, and walking it is work with nothing in it.
  var MAX_ELEMENTS = __MAX_ELEMENTS__;

  var apply = Reflect.apply;
  var construct = Reflect.construct;
  var defineProperty = Object.defineProperty;
  var getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var getPrototypeOf = Object.getPrototypeOf;
  var isArray = Array.isArray;
  var toObject = Object;
  var toNumber = Number;
  var floor = Math.floor;
  var MakeRangeError = RangeError;
  var MakeTypeError = TypeError;
  var MakeProxy = Proxy;
  var iteratorKey = Symbol.iterator;
  var spreadableKey = Symbol.isConcatSpreadable;
  var globals = globalThis;

  function text(v) {
    return `${v}`;
  }
  function objectOf(v, what) {
    if (v === undefined || v === null) throw new MakeTypeError(what + ' called on ' + v);
    return toObject(v);
  }
  function stringOf(v, what) {
    if (v === undefined || v === null) throw new MakeTypeError(what + ' called on ' + v);
    return text(v);
  }
  function integer(v) {
    var n = toNumber(v);
    if (n !== n) return 0;
    if (n === Infinity || n === -Infinity) return n;
    return n < 0 ? -floor(-n) : floor(n);
  }
  function lengthOf(v) {
    var n = integer(v);
    if (n <= 0) return 0;
    return n > 9007199254740991 ? 9007199254740991 : n;
  }
  function relative(v, len, otherwise) {
    if (v === undefined) return otherwise;
    var n = integer(v);
    if (n < 0) return len + n < 0 ? 0 : len + n;
    return n > len ? len : n;
  }
  function refuse(what, amount, unit, limit) {
    throw new MakeRangeError(
      what + ': ' + amount + ' ' + unit + ' is more than a pack script may make (' + limit + ')'
    );
  }
  function checkElements(what, n) {
    if (n > MAX_ELEMENTS) refuse(what, n, 'elements', MAX_ELEMENTS);
  }
  function checkChars(what, n) {
    if (n > MAX_CHARS) refuse(what, n, 'characters', MAX_CHARS);
  }
  function checkBytes(what, n) {
    if (n > MAX_CHARS) refuse(what, n, 'bytes', MAX_CHARS);
  }
  // An own data property, never a setter some prototype of the target holds.
  function put(target, key, value) {
    defineProperty(target, key, {
      __proto__: null, value: value, writable: true, enumerable: true, configurable: true
    });
  }
  function install(owner, key, value) {
    defineProperty(owner, key, {
      __proto__: null, value: value, writable: true, enumerable: false, configurable: true
    });
  }
  function named(fn, name, length) {
    defineProperty(fn, 'name', { __proto__: null, value: name, configurable: true });
    defineProperty(fn, 'length', { __proto__: null, value: length, configurable: true });
    return fn;
  }
  function getter(owner, key) {
    var d = getOwnPropertyDescriptor(owner, key);
    return d && d.get;
  }

  var TypedArray = getPrototypeOf(Uint8Array);
  var TypedArrayPrototype = TypedArray.prototype;
  var typedLength = getter(TypedArrayPrototype, 'length');
  var typedTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  var bufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  var sharedLength =
    typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;

  function isTypedArray(v) {
    return apply(typedTag, v, []) !== undefined;
  }
  function isBuffer(v) {
    try {
      apply(bufferLength, v, []);
      return true;
    } catch (e) {}
    if (sharedLength === undefined) return false;
    try {
      apply(sharedLength, v, []);
      return true;
    } catch (e) {}
    return false;
  }

  // A plain array of what `source` holds (by its iterator when `iterate`, else by its length),
  // built in a loop the interrupt handler sees. It hides the array iterator, so a C built-in
  // given it reads its own elements by index and nothing else.
  function dense(what, source, size, iterate) {
    var out = [];
    var method = iterate ? source[iteratorKey] : undefined;
    var n = 0;
    // An array's own iterator walks its length, holes and all: measured before it starts.
    if (isArray(source)) checkElements(what, lengthOf(source.length));
    if (method !== undefined && method !== null) {
      var it = apply(method, source, []);
      var next = it.next;
      for (;;) {
        var step = apply(next, it, []);
        if (typeof step !== 'object' || step === null) throw new MakeTypeError(what + ': an iterator step is not an object');
        if (step.done) break;
        checkElements(what, n + 1);
        checkBytes(what, (n + 1) * size);
        put(out, n, step.value);
        n++;
      }
    } else {
      var len = lengthOf(source.length);
      checkElements(what, len);
      checkBytes(what, len * size);
      for (; n < len; n++) put(out, n, source[n]);
    }
    defineProperty(out, iteratorKey, { __proto__: null, value: undefined });
    return out;
  }

  // join and toLocaleString: every element's text is made here, then the original joins the
  // plain strings, which is as much work as the result is long.
  var originalJoin = Array.prototype.join;
  function joined(what, O, len, separator, local, atLeastOne) {
    var sep = separator === undefined ? ',' : text(separator);
    checkElements(what, len);
    var total = len > 0 ? (len - 1) * sep.length + (atLeastOne ? len : 0) : 0;
    checkChars(what, total);
    var parts = [];
    total = len > 0 ? (len - 1) * sep.length : 0;
    for (var i = 0; i < len; i++) {
      var v = O[i];
      var t = v === undefined || v === null ? '' : local ? text(v.toLocaleString()) : text(v);
      total += t.length;
      checkChars(what, total);
      put(parts, i, t);
    }
    return apply(originalJoin, parts, [sep]);
  }
  install(Array.prototype, 'join', named(function (separator) {
    var O = objectOf(this, 'Array.prototype.join');
    return joined('Array.prototype.join', O, lengthOf(O.length), separator, false, false);
  }, 'join', 1));
  install(Array.prototype, 'toLocaleString', named(function () {
    var O = objectOf(this, 'Array.prototype.toLocaleString');
    return joined('Array.prototype.toLocaleString', O, lengthOf(O.length), undefined, true, false);
  }, 'toLocaleString', 0));
  install(TypedArrayPrototype, 'join', named(function (separator) {
    var len = apply(typedLength, this, []);
    return joined('TypedArray.prototype.join', this, len, separator, false, true);
  }, 'join', 1));
  install(TypedArrayPrototype, 'toLocaleString', named(function () {
    var len = apply(typedLength, this, []);
    return joined('TypedArray.prototype.toLocaleString', this, len, undefined, true, true);
  }, 'toLocaleString', 0));

  // fill: the original walks the range with no check; here the range is refused past what an
  // array can hold, and filled in a loop the interrupt handler sees.
  install(Array.prototype, 'fill', named(function (value) {
    var what = 'Array.prototype.fill';
    var O = objectOf(this, what);
    var len = lengthOf(O.length);
    var start = relative(arguments[1], len, 0);
    var end = relative(arguments[2], len, len);
    if (end > start) checkElements(what, end - start);
    for (var k = start; k < end; k++) O[k] = value;
    return O;
  }, 'fill', 1));

  // Methods whose original walks `length` with no check: refused past what an array can hold.
  function lengthChecked(owner, key) {
    var original = owner[key];
    var what = 'Array.prototype.' + key;
    install(owner, key, named(function () {
      var O = objectOf(this, what);
      checkElements(what, lengthOf(O.length));
      return apply(original, O, arguments);
    }, key, original.length));
  }
  var walking = ['reverse', 'copyWithin', 'splice', 'slice', 'shift', 'unshift', 'toReversed',
    'toSpliced', 'with'];
  for (var w = 0; w < walking.length; w++) {
    if (typeof Array.prototype[walking[w]] === 'function') lengthChecked(Array.prototype, walking[w]);
  }

  var originalConcat = Array.prototype.concat;
  install(Array.prototype, 'concat', named(function () {
    var what = 'Array.prototype.concat';
    var O = objectOf(this, what);
    var total = isArray(O) ? lengthOf(O.length) : 1;
    for (var i = 0; i < arguments.length; i++) {
      var a = arguments[i];
      var spread = (typeof a === 'object' || typeof a === 'function') && a !== null &&
        (a[spreadableKey] !== undefined ? !!a[spreadableKey] : isArray(a));
      total += spread ? lengthOf(a.length) : 1;
      checkElements(what, total);
    }
    return apply(originalConcat, O, arguments);
  }, 'concat', 1));

  // flat: every array it will open is measured first, to its depth.
  var originalFlat = Array.prototype.flat;
  function measure(what, O, depth, seen) {
    var len = lengthOf(O.length);
    checkElements(what, seen + len);
    if (depth < 1) return seen + len;
    for (var i = 0; i < len; i++) {
      var v = O[i];
      seen = isArray(v) ? measure(what, v, depth - 1, seen) : seen + 1;
    }
    return seen;
  }
  install(Array.prototype, 'flat', named(function () {
    var what = 'Array.prototype.flat';
    var O = objectOf(this, what);
    var depth = arguments[0] === undefined ? 1 : integer(arguments[0]);
    measure(what, O, depth, 0);
    return apply(originalFlat, O, arguments);
  }, 'flat', 0));
  install(Array.prototype, 'flatMap', named(function (mapper, thisArg) {
    var what = 'Array.prototype.flatMap';
    var O = objectOf(this, what);
    var len = lengthOf(O.length);
    checkElements(what, len);
    if (typeof mapper !== 'function') throw new MakeTypeError(what + ': the mapper is not a function');
    var out = [];
    var n = 0;
    for (var i = 0; i < len; i++) {
      if (!(i in O)) continue;
      var v = apply(mapper, thisArg, [O[i], i, O]);
      if (isArray(v)) {
        var m = lengthOf(v.length);
        checkElements(what, n + m);
        for (var j = 0; j < m; j++) {
          if (j in v) put(out, n++, v[j]);
        }
      } else {
        checkElements(what, n + 1);
        put(out, n++, v);
      }
    }
    return out;
  }, 'flatMap', 1));

  var originalFrom = Array.from;
  install(Array, 'from', named(function (items) {
    var what = 'Array.from';
    if (items !== undefined && items !== null) {
      var method = items[iteratorKey];
      if (isArray(items) || method === undefined || method === null) {
        checkElements(what, lengthOf(toObject(items).length));
      }
    }
    return apply(originalFrom, this, arguments);
  }, 'from', 1));

  // sort: the original's own comparison is C with no check; a comparison in JavaScript is seen.
  function compareAsText(x, y) {
    var a = text(x);
    var b = text(y);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function compareAsNumbers(x, y) {
    if (x !== x) return y !== y ? 0 : 1;
    if (y !== y) return -1;
    if (x < y) return -1;
    if (x > y) return 1;
    if (typeof x === 'number' && x === 0 && y === 0) {
      var ix = 1 / x;
      var iy = 1 / y;
      return ix < iy ? -1 : ix > iy ? 1 : 0;
    }
    return 0;
  }
  function sorting(owner, key, compare, what) {
    var original = owner[key];
    if (typeof original !== 'function') return;
    install(owner, key, named(function (comparefn) {
      if (what !== undefined) checkElements(what, lengthOf(objectOf(this, what).length));
      return apply(original, this, [comparefn === undefined ? compare : comparefn]);
    }, key, 1));
  }
  sorting(Array.prototype, 'sort', compareAsText, 'Array.prototype.sort');
  sorting(Array.prototype, 'toSorted', compareAsText, 'Array.prototype.toSorted');
  sorting(TypedArrayPrototype, 'sort', compareAsNumbers, undefined);
  sorting(TypedArrayPrototype, 'toSorted', compareAsNumbers, undefined);

  // Strings: the result's length is known before anything is made.
  var originalRepeat = String.prototype.repeat;
  install(String.prototype, 'repeat', named(function (count) {
    var what = 'String.prototype.repeat';
    var s = stringOf(this, what);
    var n = integer(count);
    if (n > 0 && n !== Infinity) checkChars(what, s.length * n);
    return apply(originalRepeat, s, [n]);
  }, 'repeat', 1));
  function padding(key) {
    var original = String.prototype[key];
    var what = 'String.prototype.' + key;
    install(String.prototype, key, named(function (maxLength) {
      var s = stringOf(this, what);
      var n = lengthOf(maxLength);
      var fill = arguments[1] === undefined ? undefined : text(arguments[1]);
      if (n > s.length && (fill === undefined || fill.length > 0)) checkChars(what, n);
      return apply(original, s, fill === undefined ? [n] : [n, fill]);
    }, key, 1));
  }
  padding('padStart');
  padding('padEnd');

  // Buffers and typed arrays: sizes are checked before anything is allocated, and array-likes
  // are read in a loop here, never by the constructor's own.
  function guardConstructor(name, size, buffer) {
    var Original = globals[name];
    if (typeof Original !== 'function') return;
    var what = 'new ' + name;
    var guarded = new MakeProxy(Original, {
      __proto__: null,
      construct: function (target, args, newTarget) {
        var a = args[0];
        var given = args;
        if (buffer) {
          checkBytes(what, integer(a));
          var options = args[1];
          if (typeof options === 'object' && options !== null && options.maxByteLength !== undefined) {
            checkBytes(what, integer(options.maxByteLength));
          }
        } else if ((typeof a === 'object' || typeof a === 'function') && a !== null) {
          if (!isBuffer(a) && !isTypedArray(a)) given = [dense(what, a, size, true)];
        } else if (a !== undefined) {
          checkBytes(what, integer(a) * size);
        }
        return construct(target, given, newTarget);
      }
    });
    install(Original.prototype, 'constructor', guarded);
    install(globals, name, guarded);
  }
  guardConstructor('ArrayBuffer', 1, true);
  guardConstructor('SharedArrayBuffer', 1, true);
  var typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
    'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array',
    'BigInt64Array', 'BigUint64Array'];
  for (var t = 0; t < typedNames.length; t++) {
    var T = globals[typedNames[t]];
    if (typeof T === 'function') guardConstructor(typedNames[t], T.BYTES_PER_ELEMENT, false);
  }

  install(TypedArray, 'from', named(function (source) {
    var what = 'TypedArray.from';
    var mapper = arguments[1];
    var thisArg = arguments[2];
    if (mapper !== undefined && typeof mapper !== 'function') throw new MakeTypeError(what + ': the mapper is not a function');
    var items = dense(what, objectOf(source, what), 1, true);
    if (mapper !== undefined) {
      for (var i = 0; i < items.length; i++) put(items, i, apply(mapper, thisArg, [items[i], i]));
    }
    return construct(this, [items]);
  }, 'from', 1));
  var originalSet = TypedArrayPrototype.set;
  install(TypedArrayPrototype, 'set', named(function (source) {
    var what = 'TypedArray.prototype.set';
    var from = objectOf(source, what);
    if (!isTypedArray(from)) from = dense(what, from, 1, false);
    return apply(originalSet, this, arguments.length > 1 ? [from, arguments[1]] : [from]);
  }, 'set', 1));
})();
