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
  // The most elements a pack's array may have for a built-in that walks it (1,048,576, four
  // times what a pack can export, or what the memory limit holds at 16 bytes a value if less).
  // A longer `length` is holes or a made-up object, and walking it is work with nothing in it.
  var MAX_ELEMENTS = __MAX_ELEMENTS__;
  var BYTES_PER_VALUE = 16;

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
  var isProxy = globals.__miauIsProxy;
  delete globals.__miauIsProxy;

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
  // A C built-in reads `length` again after it was measured: a Proxy, or a `length` getter
  // anywhere on the way, could answer small to the measure and huge to the walk.
  function checkSteady(what, O) {
    for (var o = O; o !== null; o = getPrototypeOf(o)) {
      if (isProxy(o)) throw new MakeTypeError(what + ': a Proxy is not walked by this built-in in a pack');
      var d = getOwnPropertyDescriptor(o, 'length');
      if (d !== undefined) {
        if ((d.get !== undefined && d.get !== typedLength) || d.set !== undefined) {
          throw new MakeTypeError(what + ': a length getter is not walked by this built-in in a pack');
        }
        return;
      }
    }
  }
  function checkWalk(what, O) {
    checkSteady(what, O);
    var len = lengthOf(O.length);
    checkElements(what, len);
    return len;
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

  var arrayValues = Array.prototype.values;
  // A plain array of what `source` holds (by its iterator when `iterate`, else by its length),
  // built in a loop the interrupt handler sees. Its own iterator is the original array
  // iterator (or none, when `byIndex`), so a C built-in given it walks its elements and
  // nothing a pack wrote.
  function dense(what, source, size, iterate, byIndex) {
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
    defineProperty(out, iteratorKey, { __proto__: null, value: byIndex ? undefined : arrayValues });
    return out;
  }

  // join and toLocaleString: the text is put together here (QuickJS appends to a string in
  // place or as a rope, so this is as much work as the result is long).
  function joined(what, O, len, separator, local, atLeastOne) {
    var sep = separator === undefined ? ',' : text(separator);
    checkElements(what, len);
    checkChars(what, len > 0 ? (len - 1) * sep.length + (atLeastOne ? len : 0) : 0);
    var out = '';
    for (var i = 0; i < len; i++) {
      if (i > 0) out += sep;
      var v = O[i];
      if (v !== undefined && v !== null) out += local ? text(v.toLocaleString()) : text(v);
      checkChars(what, out.length);
    }
    return out;
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
      checkWalk(what, O);
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
    var total = isArray(O) ? checkWalk(what, O) : 1;
    for (var i = 0; i < arguments.length; i++) {
      var a = arguments[i];
      var spread = (typeof a === 'object' || typeof a === 'function') && a !== null &&
        (a[spreadableKey] !== undefined ? !!a[spreadableKey] : isArray(a));
      total += spread ? checkWalk(what, a) : 1;
      checkElements(what, total);
    }
    return apply(originalConcat, O, arguments);
  }, 'concat', 1));

  // flat: every array it will open is measured first, to its depth.
  var originalFlat = Array.prototype.flat;
  function measure(what, O, depth, seen) {
    var len = checkWalk(what, O);
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

  // Array.from: an iterable is read here (a C loop would call a pack's `next` with no check);
  // an array-like is measured.
  var originalFrom = Array.from;
  install(Array, 'from', named(function (items) {
    var what = 'Array.from';
    var args = arguments;
    if (items !== undefined && items !== null) {
      var method = items[iteratorKey];
      var iterate = method !== undefined && method !== null;
      args = [dense(what, toObject(items), BYTES_PER_VALUE, iterate, true), arguments[1], arguments[2]];
    }
    return apply(originalFrom, this, args);
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
      if (what !== undefined) checkWalk(what, objectOf(this, what));
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
          if (!isBuffer(a) && !isTypedArray(a)) given = [dense(what, a, size, true, true)];
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
    var items = dense(what, objectOf(source, what), 1, true, true);
    if (mapper !== undefined) {
      for (var i = 0; i < items.length; i++) put(items, i, apply(mapper, thisArg, [items[i], i]));
    }
    return construct(this, [items]);
  }, 'from', 1));
  var originalSet = TypedArrayPrototype.set;
  install(TypedArrayPrototype, 'set', named(function (source) {
    var what = 'TypedArray.prototype.set';
    var from = objectOf(source, what);
    if (!isTypedArray(from)) from = dense(what, from, 1, false, true);
    return apply(originalSet, this, arguments.length > 1 ? [from, arguments[1]] : [from]);
  }, 'set', 1));

  // Iterators over an array, a string or a typed array walk its length in C for whoever drives
  // them (a Set being filled, a spread): refused past what an array can hold.
  function iteratorChecked(owner, key, what, measure) {
    var original = owner[key];
    if (typeof original !== 'function') return;
    var guarded = named(function () {
      checkElements(what, measure(this));
      return apply(original, this, arguments);
    }, typeof key === 'symbol' ? '[Symbol.iterator]' : key, 0);
    install(owner, key, guarded);
    return guarded;
  }
  function arrayMeasure(v) {
    return lengthOf(objectOf(v, 'Array iterator').length);
  }
  function typedMeasure(v) {
    return apply(typedLength, v, []);
  }
  function stringMeasure(v) {
    return stringOf(v, 'String iterator').length;
  }
  var guardedValues = iteratorChecked(Array.prototype, 'values', 'Array.prototype.values', arrayMeasure);
  install(Array.prototype, iteratorKey, guardedValues);
  iteratorChecked(Array.prototype, 'keys', 'Array.prototype.keys', arrayMeasure);
  iteratorChecked(Array.prototype, 'entries', 'Array.prototype.entries', arrayMeasure);
  var guardedTypedValues = iteratorChecked(TypedArrayPrototype, 'values', 'TypedArray.prototype.values', typedMeasure);
  install(TypedArrayPrototype, iteratorKey, guardedTypedValues);
  iteratorChecked(TypedArrayPrototype, 'keys', 'TypedArray.prototype.keys', typedMeasure);
  iteratorChecked(TypedArrayPrototype, 'entries', 'TypedArray.prototype.entries', typedMeasure);
  iteratorChecked(String.prototype, iteratorKey, 'String.prototype[Symbol.iterator]', stringMeasure);

  // Built-ins that drain an iterable in C are given a plain array read here instead.
  function drainedFirst(owner, key, what) {
    var original = owner[key];
    if (typeof original !== 'function') return;
    install(owner, key, named(function (iterable) {
      var args = arguments;
      if (iterable !== undefined && iterable !== null) {
        args = [dense(what, toObject(iterable), BYTES_PER_VALUE, true, false)];
      }
      return apply(original, this, args);
    }, key, original.length));
  }
  drainedFirst(Object, 'fromEntries', 'Object.fromEntries');
  var combinators = ['all', 'allSettled', 'any', 'race'];
  for (var c = 0; c < combinators.length; c++) drainedFirst(Promise, combinators[c], 'Promise.' + combinators[c]);
  function collection(name) {
    var Original = globals[name];
    if (typeof Original !== 'function') return;
    var what = 'new ' + name;
    var guarded = new MakeProxy(Original, {
      __proto__: null,
      construct: function (target, args, newTarget) {
        var a = args[0];
        var given = a === undefined || a === null ? args : [dense(what, toObject(a), BYTES_PER_VALUE, true, false)];
        return construct(target, given, newTarget);
      }
    });
    install(Original.prototype, 'constructor', guarded);
    install(globals, name, guarded);
  }
  collection('Set');
  collection('Map');
  collection('WeakSet');
  collection('WeakMap');

  // Set methods that read another set-like through its own `keys()` iterator: a set-like that
  // is not a real Set or Map is read into one here first.
  var RealSet = Set;
  var setSize = getter(Set.prototype, 'size');
  var mapSize = getter(Map.prototype, 'size');
  var setAdd = Set.prototype.add;
  function isCollection(v) {
    try {
      apply(setSize, v, []);
      return true;
    } catch (e) {}
    try {
      apply(mapSize, v, []);
      return true;
    } catch (e) {}
    return false;
  }
  function setLike(what, other) {
    if (isCollection(other)) return other;
    var o = objectOf(other, what);
    var it = o.keys();
    var next = it.next;
    var out = construct(RealSet, []);
    for (var n = 0; ; n++) {
      var step = apply(next, it, []);
      if (typeof step !== 'object' || step === null) throw new MakeTypeError(what + ': an iterator step is not an object');
      if (step.done) break;
      checkElements(what, n + 1);
      apply(setAdd, out, [step.value]);
    }
    return out;
  }
  var setMethods = ['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf',
    'isSupersetOf', 'isDisjointFrom'];
  for (var m = 0; m < setMethods.length; m++) {
    (function (key) {
      var original = Set.prototype[key];
      if (typeof original !== 'function') return;
      var what = 'Set.prototype.' + key;
      install(Set.prototype, key, named(function (other) {
        return apply(original, this, [setLike(what, other)]);
      }, key, 1));
    })(setMethods[m]);
  }

  // Iterator helpers that drain an iterator in C: the same work in loops here.
  var IteratorPrototype = getPrototypeOf(getPrototypeOf([][iteratorKey]()));
  function stepper(what, it) {
    var o = objectOf(it, what);
    var next = o.next;
    return function () {
      var step = apply(next, o, []);
      if (typeof step !== 'object' || step === null) throw new MakeTypeError(what + ': an iterator step is not an object');
      return step;
    };
  }
  function close(it) {
    var ret = it['return'];
    if (ret !== undefined && ret !== null) apply(ret, it, []);
  }
  function callable(what, fn) {
    if (typeof fn !== 'function') throw new MakeTypeError(what + ': not a function');
  }
  function eager(key, body) {
    if (typeof IteratorPrototype[key] !== 'function') return;
    install(IteratorPrototype, key, named(body, key, IteratorPrototype[key].length));
  }
  eager('forEach', function (fn) {
    var what = 'Iterator.prototype.forEach';
    callable(what, fn);
    var step = stepper(what, this);
    for (var n = 0; ; n++) {
      var s = step();
      if (s.done) return undefined;
      apply(fn, undefined, [s.value, n]);
    }
  });
  function finder(key, found, result, otherwise) {
    eager(key, function (fn) {
      var what = 'Iterator.prototype.' + key;
      callable(what, fn);
      var step = stepper(what, this);
      for (var n = 0; ; n++) {
        var s = step();
        if (s.done) return otherwise;
        var v = s.value;
        if (found(apply(fn, undefined, [v, n]))) {
          close(this);
          return result(v);
        }
      }
    });
  }
  finder('some', function (r) { return !!r; }, function () { return true; }, false);
  finder('every', function (r) { return !r; }, function () { return false; }, true);
  finder('find', function (r) { return !!r; }, function (v) { return v; }, undefined);
  eager('includes', function (value) {
    var step = stepper('Iterator.prototype.includes', this);
    for (;;) {
      var s = step();
      if (s.done) return false;
      var v = s.value;
      if (v === value || (v !== v && value !== value)) {
        close(this);
        return true;
      }
    }
  });
  eager('reduce', function (fn) {
    var what = 'Iterator.prototype.reduce';
    callable(what, fn);
    var step = stepper(what, this);
    var n = 0;
    var acc;
    if (arguments.length > 1) {
      acc = arguments[1];
    } else {
      var first = step();
      if (first.done) throw new MakeTypeError(what + ': an empty iterator with no initial value');
      acc = first.value;
      n = 1;
    }
    for (; ; n++) {
      var s = step();
      if (s.done) return acc;
      acc = apply(fn, undefined, [acc, s.value, n]);
    }
  });
  eager('toArray', function () {
    var what = 'Iterator.prototype.toArray';
    var step = stepper(what, this);
    var out = [];
    for (var n = 0; ; n++) {
      var s = step();
      if (s.done) return out;
      checkElements(what, n + 1);
      put(out, n, s.value);
    }
  });
  eager('join', function (separator) {
    var what = 'Iterator.prototype.join';
    var all = [];
    var step = stepper(what, this);
    for (var n = 0; ; n++) {
      var s = step();
      if (s.done) break;
      checkElements(what, n + 1);
      put(all, n, s.value);
    }
    return joined(what, all, n, separator, false, false);
  });

  // JSON.stringify walks every array's length in C: each value is measured by a replacer of
  // ours on its way in (a pack's replacer, or list of keys, still applies).
  var originalStringify = JSON.stringify;
  function measured(v) {
    if (isArray(v)) checkWalk('JSON.stringify', v);
    return v;
  }
  function plain(key, v) {
    return measured(v);
  }
  function keysOf(what, list) {
    var len = lengthOf(list.length);
    checkElements(what, len);
    var keys = [];
    var seen = { __proto__: null };
    var n = 0;
    for (var i = 0; i < len; i++) {
      var k = list[i];
      var key;
      if (typeof k === 'string') key = k;
      else if (typeof k === 'number' || (typeof k === 'object' && k !== null && (k instanceof String || k instanceof Number))) key = text(k);
      else continue;
      if (seen[key] === true) continue;
      seen[key] = true;
      put(keys, n++, key);
    }
    return keys;
  }
  function only(keys) {
    return function (key, v) {
      measured(v);
      if (typeof v !== 'object' || v === null || isArray(v)) return v;
      var out = { __proto__: null };
      for (var i = 0; i < keys.length; i++) {
        var k = keys[i];
        if (k in v) put(out, k, v[k]);
      }
      return out;
    };
  }
  install(JSON, 'stringify', named(function (value, replacer, space) {
    var what = 'JSON.stringify';
    var walk = plain;
    if (typeof replacer === 'function') {
      walk = function (key, v) {
        return measured(apply(replacer, this, [key, v]));
      };
    } else if (isArray(replacer)) {
      walk = only(keysOf(what, replacer));
    }
    return apply(originalStringify, JSON, [value, walk, space]);
  }, 'stringify', 3));

  // String.raw walks the template's `raw` length in C: measured, and put together here.
  install(String, 'raw', named(function (template) {
    var what = 'String.raw';
    var raw = objectOf(objectOf(template, what).raw, what);
    var len = lengthOf(raw.length);
    checkElements(what, len);
    var out = '';
    for (var i = 0; i < len; i++) {
      out += text(raw[i]);
      if (i + 1 < len && i + 1 < arguments.length) out += text(arguments[i + 1]);
      checkChars(what, out.length);
    }
    return out;
  }, 'raw', 1));
})();
