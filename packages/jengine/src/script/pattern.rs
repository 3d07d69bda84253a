//! Lua 5.4 string patterns (`string.find`, `match`, `gmatch`, `gsub`) over bytes, metered.
//!
//! The matcher walks the pattern text directly, the way Lua's `lstrlib.c` does, so it raises
//! the same errors at the same moments (a malformed tail the match never reaches is no error).
//! Every unit of work spends from a [`Steps`] meter, so a pattern that backtracks for ever
//! stops with [`PatternError::OutOfSteps`] instead of holding the host.

use std::fmt;

/// Most captures one pattern may open (Lua's `LUA_MAXCAPTURES`).
pub const MAX_CAPTURES: usize = 32;

/// Deepest nesting of the matcher (Lua's `MAXCCALLS`): past it, "pattern too complex".
const MAX_DEPTH: u32 = 200;

/// Bytes that make a pattern more than a plain substring.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Capture length markers, as in `lstrlib.c`.
const UNFINISHED: isize = -1;
const POSITION: isize = -2;

/// Why a pattern call failed. The messages are Lua 5.4's, word for word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternError {
    /// The step meter ran out before the call finished.
    OutOfSteps,
    /// A `%` is the last byte of the pattern.
    EndsWithPercent,
    /// A `[` set has no closing `]`.
    MissingBracket,
    /// `%f` is not followed by a `[` set.
    MissingFrontierSet,
    /// `%b` lacks its two delimiter bytes.
    MissingBalanceArguments,
    /// `%n` names a capture that does not exist (or is still open); holds `n`.
    InvalidCaptureIndex(usize),
    /// A `)` closes no open capture.
    InvalidPatternCapture,
    /// The match ended with a capture still open and its value was asked for.
    UnfinishedCapture,
    /// More than [`MAX_CAPTURES`] captures.
    TooManyCaptures,
    /// The matcher nested deeper than Lua allows.
    TooComplex,
    /// A replacement string has `%` followed by something other than a digit or `%`.
    InvalidReplacement,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::OutOfSteps => f.write_str("pattern matching ran out of steps"),
            PatternError::EndsWithPercent => f.write_str("malformed pattern (ends with '%')"),
            PatternError::MissingBracket => f.write_str("malformed pattern (missing ']')"),
            PatternError::MissingFrontierSet => f.write_str("missing '[' after '%f' in pattern"),
            PatternError::MissingBalanceArguments => {
                f.write_str("malformed pattern (missing arguments to '%b')")
            }
            PatternError::InvalidCaptureIndex(n) => write!(f, "invalid capture index %{n}"),
            PatternError::InvalidPatternCapture => f.write_str("invalid pattern capture"),
            PatternError::UnfinishedCapture => f.write_str("unfinished capture"),
            PatternError::TooManyCaptures => f.write_str("too many captures"),
            PatternError::TooComplex => f.write_str("pattern too complex"),
            PatternError::InvalidReplacement => {
                f.write_str("invalid use of '%' in replacement string")
            }
        }
    }
}

impl std::error::Error for PatternError {}

/// A step budget. Each attempt to match one pattern item at one subject position, each
/// backtrack and each byte scanned by a set, `%b`, a back-reference or a plain search costs
/// steps; once more than the limit is spent, matching stops with [`PatternError::OutOfSteps`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Steps {
    limit: u64,
    used: u64,
}

impl Steps {
    /// A meter allowing `limit` steps.
    pub fn new(limit: u64) -> Steps {
        Steps { limit, used: 0 }
    }

    /// Steps spent so far (past the limit once it ran out).
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Steps still allowed.
    pub fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }

    /// Spends `n` steps; an error once the total is over the limit.
    #[inline]
    pub fn spend(&mut self, n: u64) -> Result<(), PatternError> {
        self.used = self.used.saturating_add(n);
        if self.used > self.limit {
            Err(PatternError::OutOfSteps)
        } else {
            Ok(())
        }
    }
}

/// One capture's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// The subject bytes `start..end` (0-based, end exclusive).
    Span(usize, usize),
    /// A `()` capture: the 0-based subject offset (Lua reports it plus one).
    Position(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    init: usize,
    len: isize,
}

const EMPTY: Slot = Slot { init: 0, len: 0 };

/// A successful match: the whole span and the captures as the matcher left them.
///
/// Captures are read lazily, as Lua reads them: a capture left open only becomes an error
/// ("unfinished capture") when its value is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Start of the whole match (0-based byte offset).
    pub start: usize,
    /// End of the whole match (exclusive).
    pub end: usize,
    level: usize,
    slots: [Slot; MAX_CAPTURES],
}

impl Match {
    fn whole(start: usize, end: usize) -> Match {
        Match {
            start,
            end,
            level: 0,
            slots: [EMPTY; MAX_CAPTURES],
        }
    }

    /// Capture `i` (0-based), as Lua's `get_onecapture` reads it: with no captures at all,
    /// capture 0 is the whole match.
    pub fn capture(&self, i: usize) -> Result<Capture, PatternError> {
        if i >= self.level {
            return if i == 0 {
                Ok(Capture::Span(self.start, self.end))
            } else {
                Err(PatternError::InvalidCaptureIndex(i + 1))
            };
        }
        let slot = self.slots[i];
        match slot.len {
            UNFINISHED => Err(PatternError::UnfinishedCapture),
            POSITION => Ok(Capture::Position(slot.init)),
            len => Ok(Capture::Span(slot.init, slot.init + len as usize)),
        }
    }

    /// The captures `string.find` returns after the span: exactly the ones the pattern opened.
    pub fn captures(&self) -> impl Iterator<Item = Result<Capture, PatternError>> + '_ {
        (0..self.level).map(|i| self.capture(i))
    }

    /// The values `string.match`, `gmatch` and a `gsub` function receive: the captures, or
    /// the whole match when the pattern has none.
    pub fn values(&self) -> impl Iterator<Item = Result<Capture, PatternError>> + '_ {
        (0..self.level.max(1)).map(|i| self.capture(i))
    }
}

/// Lua's `posrelatI(init) - 1`: a 1-based, possibly negative start turned into an offset
/// (which may lie past the end: the callers check).
fn start_offset(init: i64, len: usize) -> u64 {
    let len = len as u64;
    if init > 0 {
        init as u64 - 1
    } else if init == 0 || init.unsigned_abs() > len {
        0
    } else {
        len - init.unsigned_abs()
    }
}

/// Whether `pattern` has no magic bytes, so a plain search gives the same answer.
pub fn is_plain(pattern: &[u8]) -> bool {
    !pattern.iter().any(|b| SPECIALS.contains(b))
}

/// Lua's `string.find(subject, pattern, init, plain)`: the first match at or after `init`
/// (1-based, negative counts from the end). With `plain`, or when the pattern has no magic
/// bytes, a plain substring search.
pub fn find(
    subject: &[u8],
    pattern: &[u8],
    init: i64,
    plain: bool,
    steps: &mut Steps,
) -> Result<Option<Match>, PatternError> {
    let init = start_offset(init, subject.len());
    if init > subject.len() as u64 {
        return Ok(None);
    }
    let init = init as usize;
    if plain || is_plain(pattern) {
        Ok(find_plain(subject, pattern, init, steps)?
            .map(|at| Match::whole(at, at + pattern.len())))
    } else {
        search_from(subject, pattern, init, steps)
    }
}

/// Lua's `string.match(subject, pattern, init)`: like [`find`], but always a pattern search.
pub fn search(
    subject: &[u8],
    pattern: &[u8],
    init: i64,
    steps: &mut Steps,
) -> Result<Option<Match>, PatternError> {
    let init = start_offset(init, subject.len());
    if init > subject.len() as u64 {
        return Ok(None);
    }
    search_from(subject, pattern, init as usize, steps)
}

fn search_from(
    subject: &[u8],
    pattern: &[u8],
    init: usize,
    steps: &mut Steps,
) -> Result<Option<Match>, PatternError> {
    let (anchor, pattern) = split_anchor(pattern);
    let mut m = Matcher::new(subject, pattern, steps);
    let found = m.search(init, anchor);
    m.settle(steps);
    found
}

fn split_anchor(pattern: &[u8]) -> (bool, &[u8]) {
    match pattern.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, pattern),
    }
}

/// The first offset at or after `from` where `needle` occurs, charging one step per subject
/// byte passed over and per needle byte compared.
fn find_plain(
    haystack: &[u8],
    needle: &[u8],
    from: usize,
    steps: &mut Steps,
) -> Result<Option<usize>, PatternError> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(from));
    };
    if needle.len() > haystack.len() - from {
        return Ok(None);
    }
    let last_start = haystack.len() - needle.len();
    let mut at = from;
    while at <= last_start {
        let window = &haystack[at..=last_start];
        let Some(skip) = window.iter().position(|&b| b == first) else {
            steps.spend(window.len() as u64)?;
            return Ok(None);
        };
        steps.spend(skip as u64 + 1 + rest.len() as u64)?;
        at += skip;
        if &haystack[at + 1..at + needle.len()] == rest {
            return Ok(Some(at));
        }
        at += 1;
    }
    Ok(None)
}

/// The state of one `string.gmatch` iteration: where the next search starts and where the
/// last match ended (an empty match there is skipped, as Lua 5.4 does).
///
/// As in Lua 5.4, a leading `^` is no anchor here: it matches a literal `^`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GMatch {
    next: usize,
    last_match: Option<usize>,
}

impl GMatch {
    /// A fresh iteration over a subject of `len` bytes starting at `init` (1-based, negative
    /// counts from the end).
    pub fn new(len: usize, init: i64) -> GMatch {
        let init = start_offset(init, len);
        let next = if init > len as u64 {
            len + 1
        } else {
            init as usize
        };
        GMatch {
            next,
            last_match: None,
        }
    }

    /// The next match, or `None` once the subject is exhausted. `subject` and `pattern` must
    /// be the same on every call.
    pub fn next(
        &mut self,
        subject: &[u8],
        pattern: &[u8],
        steps: &mut Steps,
    ) -> Result<Option<Match>, PatternError> {
        let mut m = Matcher::new(subject, pattern, steps);
        let found = self.scan(&mut m);
        m.settle(steps);
        found
    }

    fn scan(&mut self, m: &mut Matcher) -> Result<Option<Match>, PatternError> {
        for s in self.next..=m.src.len() {
            m.reset();
            match m.do_match(s, 0)? {
                Some(end) if Some(end) != self.last_match => {
                    self.next = end;
                    self.last_match = Some(end);
                    return Ok(Some(m.result(s, end)));
                }
                _ => {}
            }
        }
        // Exhausted: later calls find nothing without scanning again.
        self.next = m.src.len() + 1;
        Ok(None)
    }
}

/// Lua's `string.gsub`: replaces up to `max` matches (Lua's default is `subject.len() + 1`).
///
/// For each match, `replace` appends the replacement to the output and returns `true`, or
/// returns `false` to keep the matched text (a `nil`/`false` from a Lua table or function).
/// It gets the step meter too, so a replacement that runs other metered work can settle it.
/// Returns the new text, or `None` when nothing was replaced (Lua then hands back the
/// original value), and the number of matches.
pub fn gsub<E: From<PatternError>>(
    subject: &[u8],
    pattern: &[u8],
    max: i64,
    steps: &mut Steps,
    mut replace: impl FnMut(&Match, &mut Steps, &mut Vec<u8>) -> Result<bool, E>,
) -> Result<(Option<Vec<u8>>, i64), E> {
    let (anchor, pattern) = split_anchor(pattern);
    let mut m = Matcher::new(subject, pattern, steps);
    let mut out = Vec::new();
    let mut last_match = None;
    let mut count = 0i64;
    let mut changed = false;
    let mut src = 0;
    while count < max {
        m.reset();
        let end = m.do_match(src, 0);
        let end = match end {
            Ok(end) => end.filter(|&e| Some(e) != last_match),
            Err(e) => {
                m.settle(steps);
                return Err(e.into());
            }
        };
        if let Some(end) = end {
            let found = m.result(src, end);
            count += 1;
            // The replacement may run other metered work: the meter is brought up to date
            // before it and read again after.
            m.settle(steps);
            let before = out.len();
            if replace(&found, steps, &mut out)? {
                changed = true;
            } else {
                out.extend_from_slice(&subject[found.start..found.end]);
            }
            steps.spend((out.len() - before) as u64)?;
            m.left = steps.remaining();
            src = end;
            last_match = Some(end);
        } else if src < subject.len() {
            out.push(subject[src]);
            src += 1;
        } else {
            break;
        }
        if anchor {
            break;
        }
    }
    m.settle(steps);
    if !changed {
        return Ok((None, count));
    }
    out.extend_from_slice(&subject[src..]);
    Ok((Some(out), count))
}

/// Appends a `gsub` replacement string for `found` to `out`: `%0` is the whole match,
/// `%1`-`%9` the captures (a position capture as its 1-based number), `%%` a `%`.
pub fn expand(
    replacement: &[u8],
    found: &Match,
    subject: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), PatternError> {
    let mut rest = replacement;
    while let Some(at) = rest.iter().position(|&b| b == b'%') {
        out.extend_from_slice(&rest[..at]);
        let code = rest.get(at + 1).copied().unwrap_or(0);
        match code {
            b'%' => out.push(b'%'),
            b'0' => out.extend_from_slice(&subject[found.start..found.end]),
            b'1'..=b'9' => match found.capture((code - b'1') as usize)? {
                Capture::Span(a, b) => out.extend_from_slice(&subject[a..b]),
                Capture::Position(p) => out.extend_from_slice((p + 1).to_string().as_bytes()),
            },
            _ => return Err(PatternError::InvalidReplacement),
        }
        rest = &rest[at + 2..];
    }
    out.extend_from_slice(rest);
    Ok(())
}

/// One search in progress: `lstrlib.c`'s `MatchState`, with offsets instead of pointers.
/// Reading past the end of the subject or pattern yields 0, as C's terminating NUL does.
///
/// It keeps its own count of the steps left and spent, handed to the [`Steps`] meter by
/// `settle`, so the hot path touches nothing but itself.
struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    depth: u32,
    slots: [Slot; MAX_CAPTURES],
    left: u64,
    used: u64,
}

impl<'a> Matcher<'a> {
    fn new(src: &'a [u8], pat: &'a [u8], steps: &Steps) -> Matcher<'a> {
        Matcher {
            src,
            pat,
            level: 0,
            depth: MAX_DEPTH,
            slots: [EMPTY; MAX_CAPTURES],
            left: steps.remaining(),
            used: 0,
        }
    }

    /// Fresh captures and depth for a match attempt at a new start.
    fn reset(&mut self) {
        self.level = 0;
        self.depth = MAX_DEPTH;
    }

    /// Moves the steps spent so far onto `steps` (past its limit after running out).
    fn settle(&mut self, steps: &mut Steps) {
        // An over-limit total is recorded; the caller already has the error in hand.
        let _ = steps.spend(self.used);
        self.used = 0;
    }

    /// Lua's `str_find_aux` loop: the first start at or after `init` where the pattern
    /// matches (only `init` itself when anchored).
    fn search(&mut self, init: usize, anchor: bool) -> Result<Option<Match>, PatternError> {
        let mut s = init;
        loop {
            self.reset();
            if let Some(end) = self.do_match(s, 0)? {
                return Ok(Some(self.result(s, end)));
            }
            if anchor || s >= self.src.len() {
                return Ok(None);
            }
            s += 1;
        }
    }

    fn result(&self, start: usize, end: usize) -> Match {
        Match {
            start,
            end,
            level: self.level,
            slots: self.slots,
        }
    }

    #[inline]
    fn spend(&mut self, n: u64) -> Result<(), PatternError> {
        self.used += n;
        if n > self.left {
            self.left = 0;
            return Err(PatternError::OutOfSteps);
        }
        self.left -= n;
        Ok(())
    }

    #[inline]
    fn p_at(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn s_at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn do_match(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, PatternError> {
        if self.depth == 0 {
            return Err(PatternError::TooComplex);
        }
        self.depth -= 1;
        let result = loop {
            self.spend(1)?;
            if p == self.pat.len() {
                break Some(s);
            }
            let next = self.p_at(p + 1);
            match self.pat[p] {
                b'(' if next == b')' => break self.start_capture(s, p + 2, POSITION)?,
                b'(' => break self.start_capture(s, p + 1, UNFINISHED)?,
                b')' => break self.end_capture(s, p + 1)?,
                b'$' if p + 1 == self.pat.len() => break (s == self.src.len()).then_some(s),
                b'%' if next == b'b' => match self.match_balance(s, p + 2)? {
                    Some(e) => {
                        s = e;
                        p += 4;
                    }
                    None => break None,
                },
                b'%' if next == b'f' => {
                    p += 2;
                    if self.p_at(p) != b'[' {
                        return Err(PatternError::MissingFrontierSet);
                    }
                    let ep = self.class_end(p)?;
                    self.spend(2 * (ep - p) as u64)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.match_bracket(previous, p, ep - 1)
                        && self.match_bracket(self.s_at(s), p, ep - 1)
                    {
                        p = ep;
                    } else {
                        break None;
                    }
                }
                b'%' if next.is_ascii_digit() => match self.match_capture(s, next)? {
                    Some(e) => {
                        s = e;
                        p += 2;
                    }
                    None => break None,
                },
                _ => {
                    // A single-byte class with an optional quantifier.
                    let ep = self.class_end(p)?;
                    let suffix = self.p_at(ep);
                    if !self.single_match(s, p, ep)? {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        break None;
                    }
                    match suffix {
                        b'?' => {
                            if let Some(e) = self.do_match(s + 1, ep + 1)? {
                                break Some(e);
                            }
                            p = ep + 1;
                        }
                        b'+' => break self.max_expand(s + 1, p, ep)?,
                        b'*' => break self.max_expand(s, p, ep)?,
                        b'-' => break self.min_expand(s, p, ep)?,
                        _ => {
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        };
        self.depth += 1;
        Ok(result)
    }

    /// The end of the class starting at `p` (a byte, `%x` or a `[...]` set).
    fn class_end(&mut self, p: usize) -> Result<usize, PatternError> {
        let first = self.pat[p];
        let mut q = p + 1;
        match first {
            b'%' => {
                if q == self.pat.len() {
                    return Err(PatternError::EndsWithPercent);
                }
                Ok(q + 1)
            }
            b'[' => {
                if self.p_at(q) == b'^' {
                    q += 1;
                }
                loop {
                    if q == self.pat.len() {
                        return Err(PatternError::MissingBracket);
                    }
                    let c = self.pat[q];
                    q += 1;
                    if c == b'%' && q < self.pat.len() {
                        q += 1;
                    }
                    if self.p_at(q) == b']' {
                        break;
                    }
                }
                // Scanning a set is work in proportion to its length.
                self.spend((q - p) as u64)?;
                Ok(q + 1)
            }
            _ => Ok(q),
        }
    }

    /// Whether the subject byte at `s` belongs to the class `p..ep`.
    #[inline]
    fn single_match(&mut self, s: usize, p: usize, ep: usize) -> Result<bool, PatternError> {
        let Some(&c) = self.src.get(s) else {
            return Ok(false);
        };
        Ok(match self.pat[p] {
            b'.' => true,
            b'%' => match_class(c, self.p_at(p + 1)),
            b'[' => {
                self.spend((ep - p) as u64)?;
                self.match_bracket(c, p, ep - 1)
            }
            literal => literal == c,
        })
    }

    /// Whether `c` is in the set `[...]` spanning `p..=ec` (`ec` is the closing `]`).
    fn match_bracket(&self, c: u8, p: usize, ec: usize) -> bool {
        let mut p = p;
        let mut inside = true;
        if self.p_at(p + 1) == b'^' {
            inside = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                return !inside;
            }
            let item = self.pat[p];
            if item == b'%' {
                p += 1;
                if match_class(c, self.p_at(p)) {
                    return inside;
                }
            } else if self.p_at(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if item <= c && c <= self.pat[p] {
                    return inside;
                }
            } else if item == c {
                return inside;
            }
        }
    }

    /// `%bxy` at `s`: the end of the balanced run, if one starts there.
    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if p + 1 >= self.pat.len() {
            return Err(PatternError::MissingBalanceArguments);
        }
        let (open, close) = (self.pat[p], self.pat[p + 1]);
        if self.s_at(s) != open || s >= self.src.len() {
            // At the end the C code compares against the terminating NUL; a NUL `open` can
            // match it, but then the scan below finds nothing either way.
            return Ok(None);
        }
        let mut depth = 1u32;
        for (i, &c) in self.src[s + 1..].iter().enumerate() {
            if c == close {
                depth -= 1;
                if depth == 0 {
                    self.spend(i as u64 + 1)?;
                    return Ok(Some(s + i + 2));
                }
            } else if c == open {
                depth += 1;
            }
        }
        self.spend((self.src.len() - s) as u64)?;
        Ok(None)
    }

    /// The most repetitions of the class `p..ep` at `s`, then backing off one at a time
    /// until the rest of the pattern matches.
    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut i = 0;
        if self.pat[p] == b'.' {
            i = self.src.len().saturating_sub(s);
            self.spend(i as u64)?;
        } else {
            while self.single_match(s + i, p, ep)? {
                self.spend(1)?;
                i += 1;
            }
        }
        loop {
            if let Some(e) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(e));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    /// The fewest repetitions of the class `p..ep` at `s` after which the rest matches.
    fn min_expand(
        &mut self,
        mut s: usize,
        p: usize,
        ep: usize,
    ) -> Result<Option<usize>, PatternError> {
        loop {
            if let Some(e) = self.do_match(s, ep + 1)? {
                return Ok(Some(e));
            }
            if !self.single_match(s, p, ep)? {
                return Ok(None);
            }
            s += 1;
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        what: isize,
    ) -> Result<Option<usize>, PatternError> {
        if self.level >= MAX_CAPTURES {
            return Err(PatternError::TooManyCaptures);
        }
        self.slots[self.level] = Slot { init: s, len: what };
        self.level += 1;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.level -= 1;
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let open = (0..self.level)
            .rev()
            .find(|&l| self.slots[l].len == UNFINISHED)
            .ok_or(PatternError::InvalidPatternCapture)?;
        self.slots[open].len = (s - self.slots[open].init) as isize;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.slots[open].len = UNFINISHED;
        }
        Ok(result)
    }

    /// `%1`-`%9` at `s`: the end of a repeat of that capture's text, if it follows.
    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let index = digit as usize;
        let l = index.wrapping_sub(b'1' as usize);
        if l >= self.level || self.slots[l].len == UNFINISHED {
            return Err(PatternError::InvalidCaptureIndex(index - b'0' as usize));
        }
        let Slot { init, len } = self.slots[l];
        // A position capture has no text; Lua's size check never passes for it.
        if len < 0 || self.src.len() - s < len as usize {
            return Ok(None);
        }
        let len = len as usize;
        self.spend(len as u64)?;
        Ok((self.src[init..init + len] == self.src[s..s + len]).then_some(s + len))
    }
}

/// Lua's `match_class`: `%a`, `%d`, ... in the C locale; upper case is the complement; any
/// other byte stands for itself.
fn match_class(c: u8, class: u8) -> bool {
    let res = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace includes the vertical tab, which Rust's is_ascii_whitespace does not.
        b's' => matches!(c, b' ' | b'\t'..=b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return class == c,
    };
    if class.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BIG: u64 = 10_000_000;

    /// What a Lua call handed back: its values, or its error message.
    #[derive(Debug, Clone, PartialEq)]
    enum Out {
        Nil,
        Int(i64),
        Str(Vec<u8>),
    }

    type Outcome = Result<Vec<Out>, String>;

    fn cap(subject: &[u8], c: Capture) -> Out {
        match c {
            Capture::Span(a, b) => Out::Str(subject[a..b].to_vec()),
            Capture::Position(p) => Out::Int(p as i64 + 1),
        }
    }

    fn collect(
        subject: &[u8],
        caps: impl Iterator<Item = Result<Capture, PatternError>>,
        out: &mut Vec<Out>,
    ) -> Result<(), String> {
        for c in caps {
            out.push(cap(subject, c.map_err(|e| e.to_string())?));
        }
        Ok(())
    }

    fn my_find(s: &[u8], p: &[u8], init: i64, plain: bool) -> Outcome {
        let found = find(s, p, init, plain, &mut Steps::new(BIG)).map_err(|e| e.to_string())?;
        let Some(m) = found else {
            return Ok(vec![Out::Nil]);
        };
        let mut out = vec![Out::Int(m.start as i64 + 1), Out::Int(m.end as i64)];
        collect(s, m.captures(), &mut out)?;
        Ok(out)
    }

    fn my_match(s: &[u8], p: &[u8], init: i64) -> Outcome {
        let found = search(s, p, init, &mut Steps::new(BIG)).map_err(|e| e.to_string())?;
        let Some(m) = found else {
            return Ok(vec![Out::Nil]);
        };
        let mut out = Vec::new();
        collect(s, m.values(), &mut out)?;
        Ok(out)
    }

    /// Every gmatch result, one list per iteration (at most 50, as the Lua side stops there).
    fn my_gmatch(s: &[u8], p: &[u8], init: i64) -> Result<Vec<Vec<Out>>, String> {
        let mut state = GMatch::new(s.len(), init);
        let mut steps = Steps::new(BIG);
        let mut all = Vec::new();
        while all.len() < 50 {
            let Some(m) = state.next(s, p, &mut steps).map_err(|e| e.to_string())? else {
                break;
            };
            let mut out = Vec::new();
            collect(s, m.values(), &mut out)?;
            all.push(out);
        }
        Ok(all)
    }

    fn my_gsub(s: &[u8], p: &[u8], repl: &[u8], max: Option<i64>) -> Outcome {
        let max = max.unwrap_or(s.len() as i64 + 1);
        let (text, n) = gsub(s, p, max, &mut Steps::new(BIG), |m, _, out| {
            expand(repl, m, s, out).map(|()| true)
        })
        .map_err(|e: PatternError| e.to_string())?;
        Ok(vec![
            Out::Str(text.unwrap_or_else(|| s.to_vec())),
            Out::Int(n),
        ])
    }

    /// The real Lua 5.4 string library, called through `pcall` so errors come back as bare
    /// messages.
    struct Lua54 {
        lua: mlua::Lua,
        call: mlua::Function,
        gmatch: mlua::Function,
    }

    impl Lua54 {
        fn new() -> Lua54 {
            let lua = mlua::Lua::new();
            let call = lua
                .load("return function(name, ...) return pcall(string[name], ...) end")
                .eval()
                .unwrap();
            let gmatch = lua
                .load(
                    r#"return function(s, p, init)
                        local ok, it = pcall(string.gmatch, s, p, init)
                        if not ok then return false, it end
                        local all = {}
                        while #all < 50 do
                            local r = table.pack(pcall(it))
                            if not r[1] then return false, r[2] end
                            if r.n == 1 then break end
                            all[#all + 1] = table.pack(table.unpack(r, 2, r.n))
                        end
                        return true, all
                    end"#,
                )
                .eval()
                .unwrap();
            Lua54 { lua, call, gmatch }
        }

        fn value(v: mlua::Value) -> Out {
            match v {
                mlua::Value::Nil => Out::Nil,
                mlua::Value::Integer(i) => Out::Int(i),
                mlua::Value::String(s) => Out::Str(s.as_bytes().to_vec()),
                other => panic!("unexpected value from Lua: {other:?}"),
            }
        }

        fn call(&self, name: &str, args: impl mlua::IntoLuaMulti) -> Outcome {
            let mut args = args.into_lua_multi(&self.lua).unwrap();
            args.push_front(mlua::Value::String(self.lua.create_string(name).unwrap()));
            let mut r: mlua::MultiValue = self.call.call(args).unwrap();
            let ok = r.pop_front() == Some(mlua::Value::Boolean(true));
            if ok {
                Ok(r.into_iter().map(Lua54::value).collect())
            } else {
                Err(r.pop_front().unwrap().to_string().unwrap())
            }
        }

        fn bytes(&self, b: &[u8]) -> mlua::LuaString {
            self.lua.create_string(b).unwrap()
        }

        fn find(&self, s: &[u8], p: &[u8], init: i64, plain: bool) -> Outcome {
            self.call("find", (self.bytes(s), self.bytes(p), init, plain))
        }

        fn match_(&self, s: &[u8], p: &[u8], init: i64) -> Outcome {
            self.call("match", (self.bytes(s), self.bytes(p), init))
        }

        fn gsub(&self, s: &[u8], p: &[u8], repl: &[u8], max: Option<i64>) -> Outcome {
            self.call(
                "gsub",
                (self.bytes(s), self.bytes(p), self.bytes(repl), max),
            )
        }

        fn gmatch(&self, s: &[u8], p: &[u8], init: i64) -> Result<Vec<Vec<Out>>, String> {
            let (ok, r): (bool, mlua::Value) = self
                .gmatch
                .call((self.bytes(s), self.bytes(p), init))
                .unwrap();
            if !ok {
                return Err(r.to_string().unwrap());
            }
            let mlua::Value::Table(all) = r else {
                panic!("gmatch helper returned {r:?}")
            };
            Ok(all
                .sequence_values::<mlua::Table>()
                .map(|t| {
                    let t = t.unwrap();
                    let n: usize = t.get("n").unwrap();
                    (1..=n).map(|i| Lua54::value(t.get(i).unwrap())).collect()
                })
                .collect())
        }
    }

    thread_local! {
        static LUA: Lua54 = Lua54::new();
    }

    fn strs(items: &[&str]) -> Outcome {
        Ok(items
            .iter()
            .map(|s| Out::Str(s.as_bytes().to_vec()))
            .collect())
    }

    fn ints(items: &[i64]) -> Outcome {
        Ok(items.iter().map(|&i| Out::Int(i)).collect())
    }

    /// Checks `string.match(s, p)` against both an expected value and real Lua.
    fn check_match(s: &str, p: &str, expected: Outcome) {
        let mine = my_match(s.as_bytes(), p.as_bytes(), 1);
        assert_eq!(mine, expected, "match({s:?}, {p:?})");
        let lua = LUA.with(|l| l.match_(s.as_bytes(), p.as_bytes(), 1));
        assert_eq!(mine, lua, "match({s:?}, {p:?}) differs from Lua");
    }

    fn check_error(s: &str, p: &str, message: &str) {
        check_match(s, p, Err(message.to_string()));
    }

    #[test]
    fn single_bytes_and_dot() {
        check_match("hello", "ll", strs(&["ll"]));
        check_match("hello", "l.o", strs(&["llo"]));
        check_match("hello", "x", Ok(vec![Out::Nil]));
        check_match("", "", strs(&[""]));
        check_match("a\0b", "%z", strs(&["\0"]));
    }

    #[test]
    fn classes_and_their_complements() {
        check_match("ab12 ,.XY\t", "%a+", strs(&["ab"]));
        check_match("ab12 ,.XY\t", "%d+", strs(&["12"]));
        check_match("ab12 ,.XY\t", "%p+", strs(&[",."]));
        check_match("ab12 ,.XY\t", "%u+", strs(&["XY"]));
        check_match("ab12 ,.XY\t", "%l+", strs(&["ab"]));
        check_match("ab12 ,.XY\t", "%w+", strs(&["ab12"]));
        check_match("ab12 ,.XY\t", "%s+", strs(&[" "]));
        check_match("xyzFf0g", "%x+", strs(&["Ff0"]));
        check_match("ab\x01\x7f", "%c+", strs(&["\x01\x7f"]));
        check_match("  a~ ", "%g+", strs(&["a~"]));
        check_match("ab12", "%D+", strs(&["ab"]));
        check_match("ab 12", "%S+$", strs(&["12"]));
        check_match("a\x0bb", "%s", strs(&["\x0b"]));
        // Bytes past ASCII belong to no class in the C locale.
        assert_eq!(
            my_match(b"\xe9\xe9a", b"%A+", 1),
            Ok(vec![Out::Str(b"\xe9\xe9".to_vec())])
        );
    }

    #[test]
    fn escapes_stand_for_themselves() {
        check_match("a.b", "%.", strs(&["."]));
        check_match("50%", "%d+%%", strs(&["50%"]));
        check_match("(x)", "%(x%)", strs(&["(x)"]));
    }

    #[test]
    fn sets() {
        check_match("hello world", "[aeiou]+", strs(&["e"]));
        check_match("xyz123", "[0-9]+", strs(&["123"]));
        check_match("abc123", "[^a-c]+", strs(&["123"]));
        check_match("a]b", "[]]", strs(&["]"]));
        check_match("a]b^", "[^]]+", strs(&["a"]));
        check_match("a-b", "[a-]+", strs(&["a-"]));
        check_match("x1_y", "[%d_]+", strs(&["1_"]));
        check_match("a]", "[%]]", strs(&["]"]));
        check_match("^x", "[x^]+", strs(&["^x"]));
    }

    #[test]
    fn quantifiers() {
        check_match("aaab", "a*", strs(&["aaa"]));
        check_match("baaa", "a*", strs(&[""]));
        check_match("aaab", "a+b", strs(&["aaab"]));
        check_match("b", "a+", Ok(vec![Out::Nil]));
        check_match("<a><b>", "<.->", strs(&["<a>"]));
        check_match("<a><b>", "<.*>", strs(&["<a><b>"]));
        check_match("color colour", "colou?r", strs(&["color"]));
        check_match("+x", "+x", strs(&["+x"]));
    }

    #[test]
    fn anchors() {
        check_match("hello", "^h", strs(&["h"]));
        check_match("hello", "^e", Ok(vec![Out::Nil]));
        check_match("hello", "o$", strs(&["o"]));
        check_match("a$b", "a$b", strs(&["a$b"]));
        check_match("a^b", "a^b", strs(&["a^b"]));
        assert_eq!(my_find(b"hello", b"^l", 3, false), ints(&[3, 3]));
    }

    #[test]
    fn captures_and_positions() {
        check_match("key = value", "(%w+)%s*=%s*(%w+)", strs(&["key", "value"]));
        check_match("hello", "()ll()", Ok(vec![Out::Int(3), Out::Int(5)]));
        check_match("abc", "((a)(b))", strs(&["ab", "a", "b"]));
        check_match("a", &"()".repeat(MAX_CAPTURES), ints(&[1; MAX_CAPTURES]));
        assert_eq!(
            my_find(b"x = 1", b"(%w+) = (%d)", 1, false),
            Ok(vec![
                Out::Int(1),
                Out::Int(5),
                Out::Str(b"x".to_vec()),
                Out::Str(b"1".to_vec())
            ])
        );
    }

    #[test]
    fn back_references() {
        check_match("say \"hi\" or 'yo'", "([\"'])(.-)%1", strs(&["\"", "hi"]));
        check_match("abab", "(ab)%1", strs(&["ab"]));
        // A back-reference to a position capture never matches.
        check_match("aa", "()a%1", Ok(vec![Out::Nil]));
    }

    #[test]
    fn balanced_runs() {
        check_match("f(a(b)c) d", "%b()", strs(&["(a(b)c)"]));
        check_match("x(()", "%b()", strs(&["()"]));
        check_match("[[x]", "%b[]", strs(&["[x]"]));
    }

    #[test]
    fn frontiers() {
        check_match("THE (quick) fox", "%f[%a]%a+", strs(&["THE"]));
        check_match("hello world", "%f[%a]%a+$", strs(&["world"]));
        check_match("abc", "%f[%z]", strs(&[""]));
        assert_eq!(my_find(b"the cat", b"%f[%w]%w+", 2, false), ints(&[5, 7]));
    }

    #[test]
    fn malformed_patterns_raise_lua_messages() {
        check_error("a", "%", "malformed pattern (ends with '%')");
        check_error("a", "[a", "malformed pattern (missing ']')");
        check_error("a", "[]", "malformed pattern (missing ']')");
        check_error("a", "%f", "missing '[' after '%f' in pattern");
        check_error("a", "%fa", "missing '[' after '%f' in pattern");
        check_error("a", "%b", "malformed pattern (missing arguments to '%b')");
        check_error("a", "%ba", "malformed pattern (missing arguments to '%b')");
        check_error("a", "%1", "invalid capture index %1");
        check_error("a", "(a%1)", "invalid capture index %1");
        check_error("a", "%0", "invalid capture index %0");
        check_error("a", "a)", "invalid pattern capture");
        check_error("a", "(a", "unfinished capture");
        check_error("a", &"()".repeat(33), "too many captures");
        check_error(&"a".repeat(300), &"a?".repeat(300), "pattern too complex");
        check_error(&"ab".repeat(250), &"a*b".repeat(250), "pattern too complex");
        // Empty repetitions continue in place instead of nesting.
        check_match("aaa", &"a*".repeat(300), strs(&["aaa"]));
    }

    #[test]
    fn errors_are_raised_only_where_the_match_reaches() {
        // The malformed tail is never tried, as in Lua.
        check_match("b", "a%", Ok(vec![Out::Nil]));
        check_match("b", "b|[", Ok(vec![Out::Nil]));
    }

    #[test]
    fn find_init_and_plain() {
        let lua = |s: &str, p: &str, i: i64, plain: bool| {
            LUA.with(|l| l.find(s.as_bytes(), p.as_bytes(), i, plain))
        };
        for (s, p, init, plain) in [
            ("hello", "l", 1, false),
            ("hello", "l", 4, false),
            ("hello", "l", -1, false),
            ("hello", "l", -2, false),
            ("hello", "l", -100, false),
            ("hello", "", 6, false),
            ("hello", "", 7, false),
            ("hello", "", 0, false),
            ("a.b", ".", 1, true),
            ("a.b", ".", 1, false),
            ("a+b", "+", 1, false),
            ("x(y", "(", 1, true),
        ] {
            let mine = my_find(s.as_bytes(), p.as_bytes(), init, plain);
            assert_eq!(
                mine,
                lua(s, p, init, plain),
                "find({s:?}, {p:?}, {init}, {plain})"
            );
        }
        assert_eq!(my_find(b"hello", b"l", -2, false), ints(&[4, 4]));
        assert_eq!(my_find(b"hello", b"", 7, false), Ok(vec![Out::Nil]));
        assert_eq!(my_find(b"a.b", b".", 1, true), ints(&[2, 2]));
    }

    #[test]
    fn plain_patterns_take_the_substring_search() {
        assert!(is_plain(b"hello world]"));
        assert!(!is_plain(b"a.b"));
        let mut steps = Steps::new(BIG);
        let m = find(b"xxhixx", b"hi", 1, false, &mut steps)
            .unwrap()
            .unwrap();
        assert_eq!((m.start, m.end, m.captures().count()), (2, 4, 0));
    }

    #[test]
    fn gmatch_iterates_and_skips_an_empty_match_at_the_last_end() {
        let all = my_gmatch(b"one two  three", b"%a+", 1).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[2], vec![Out::Str(b"three".to_vec())]);
        for (s, p, init) in [
            ("abc", "%a*", 1),
            ("abc", "", 1),
            ("a,b,,c", "([^,]*)", 1),
            ("k=v, x=y", "(%w+)=(%w+)", 1),
            ("abcabc", "a", 2),
            ("abc", "b*", -2),
            ("abc", ".", 10),
            ("^a^a", "^a", 1),
            ("aaa", "()a", 1),
        ] {
            let lua = LUA.with(|l| l.gmatch(s.as_bytes(), p.as_bytes(), init));
            assert_eq!(
                my_gmatch(s.as_bytes(), p.as_bytes(), init),
                lua,
                "gmatch({s:?}, {p:?}, {init})"
            );
        }
    }

    #[test]
    fn gmatch_treats_a_caret_as_a_literal() {
        let all = my_gmatch(b"^a^a", b"^a", 1).unwrap();
        assert_eq!(all.len(), 2);
        assert!(my_gmatch(b"aa", b"^a", 1).unwrap().is_empty());
    }

    #[test]
    fn gsub_replaces_with_strings_limits_and_anchors() {
        let cases: &[(&str, &str, &str, Option<i64>)] = &[
            ("hello world", "o", "0", None),
            ("hello world", "(%w+)", "<%1>", None),
            ("hello world", "%w+", "%0 %0", Some(1)),
            ("hello", "", "-", None),
            ("abc", "%w", "%%", None),
            ("abc", "^a", "x", None),
            ("aaa", "^a", "x", None),
            ("abc", "b*", "-", None),
            ("abc", "()b", "%1", None),
            ("abc", "b", "%2", None),
            ("abc", "b", "%x", None),
            ("abc", "b", "x%", None),
            ("abc", "(b", "x", None),
            ("abc", "(b", "%1", None),
            ("abc", "x", "y", None),
            ("abc", ".", "y", Some(0)),
            ("abc", ".", "y", Some(-3)),
        ];
        for &(s, p, r, n) in cases {
            let (s, p, r) = (s.as_bytes(), p.as_bytes(), r.as_bytes());
            let lua = LUA.with(|l| l.gsub(s, p, r, n));
            assert_eq!(my_gsub(s, p, r, n), lua, "gsub({s:?}, {p:?}, {r:?}, {n:?})");
        }
        assert_eq!(
            my_gsub(b"hello world", b"(%w+)", b"<%1>", None),
            Ok(vec![Out::Str(b"<hello> <world>".to_vec()), Out::Int(2)])
        );
    }

    #[test]
    fn gsub_keeps_the_match_when_the_replacement_declines() {
        let (text, n) = gsub(b"a1b2", b"%d", 10, &mut Steps::new(BIG), |m, _, out| {
            if m.start == 1 {
                out.extend_from_slice(b"one");
                Ok::<bool, PatternError>(true)
            } else {
                Ok(false)
            }
        })
        .unwrap();
        assert_eq!((text.unwrap(), n), (b"aoneb2".to_vec(), 2));
        let (text, n) = gsub(b"a1", b"%d", 10, &mut Steps::new(BIG), |_, _, _| {
            Ok::<bool, PatternError>(false)
        })
        .unwrap();
        assert_eq!((text, n), (None, 1));
    }

    #[test]
    fn nested_lazy_dots_run_out_of_steps() {
        let subject = vec![b'a'; 30_000];
        let mut steps = Steps::new(10_000_000);
        let result = find(&subject, b".-.-.-b", 1, false, &mut steps);
        assert_eq!(result, Err(PatternError::OutOfSteps));
        assert!(steps.used() > 10_000_000);
        assert_eq!(steps.remaining(), 0);
    }

    #[test]
    fn steps_are_spent_and_reported() {
        let mut steps = Steps::new(BIG);
        find(b"aaaa", b"a+b", 1, false, &mut steps).unwrap();
        let used = steps.used();
        assert!(used > 4, "a failed search over 4 bytes spent {used} steps");
        let mut exact = Steps::new(used);
        assert_eq!(find(b"aaaa", b"a+b", 1, false, &mut exact), Ok(None));
        let mut short = Steps::new(used - 1);
        assert_eq!(
            find(b"aaaa", b"a+b", 1, false, &mut short),
            Err(PatternError::OutOfSteps)
        );
    }

    #[test]
    fn plain_search_is_metered() {
        let subject = vec![b'a'; 100_000];
        let mut steps = Steps::new(1000);
        assert_eq!(
            find(&subject, b"aaab", 1, true, &mut steps),
            Err(PatternError::OutOfSteps)
        );
    }

    #[test]
    fn gsub_output_is_metered() {
        let subject = vec![b'a'; 1000];
        let repl = vec![b'x'; 1000];
        let mut steps = Steps::new(100_000);
        let result = gsub(&subject, b"a", 2000, &mut steps, |m, _, out| {
            expand(&repl, m, &subject, out).map(|()| true)
        });
        assert_eq!(result, Err(PatternError::OutOfSteps));
    }

    #[test]
    fn a_huge_set_costs_its_length() {
        let mut set = b"[".to_vec();
        set.extend(std::iter::repeat_n(b'x', 10_000));
        set.extend_from_slice(b"]");
        let subject = vec![b'a'; 10_000];
        let mut steps = Steps::new(1_000_000);
        assert_eq!(
            search(&subject, &set, 1, &mut steps),
            Err(PatternError::OutOfSteps)
        );
    }

    /// Patterns over a small alphabet where every feature and most malformations show up.
    fn pattern_text() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(vec![
            "a", "b", ".", "%a", "%d", "%l", "%s", "%u", "%w", "%p", "%A", "%", "[", "]", "^", "$",
            "(", ")", "()", "*", "+", "-", "?", "%b", "%bab", "%b()", "%f", "%f[a]", "%f[^a]",
            "[ab]", "[^a]", "[a-b]", "[%a]", "%1", "%2", "%0", "%]", "%(", "%%",
        ]);
        prop::collection::vec(token, 0..8).prop_map(|t| t.concat().into_bytes())
    }

    fn subject_text() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(prop::sample::select(b"ab()[] 1%^".to_vec()), 0..10)
    }

    fn replacement_text() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(vec!["x", "%0", "%1", "%2", "%%", "%", "%a", "-"]);
        prop::collection::vec(token, 0..4).prop_map(|t| t.concat().into_bytes())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn find_and_match_equal_lua(
            s in subject_text(),
            p in pattern_text(),
            init in -12i64..12,
            plain in any::<bool>(),
        ) {
            let lua = LUA.with(|l| l.find(&s, &p, init, plain));
            prop_assert_eq!(my_find(&s, &p, init, plain), lua);
            let lua = LUA.with(|l| l.match_(&s, &p, init));
            prop_assert_eq!(my_match(&s, &p, init), lua);
        }

        #[test]
        fn gmatch_equals_lua(s in subject_text(), p in pattern_text(), init in -12i64..12) {
            let lua = LUA.with(|l| l.gmatch(&s, &p, init));
            prop_assert_eq!(my_gmatch(&s, &p, init), lua);
        }

        #[test]
        fn gsub_equals_lua(
            s in subject_text(),
            p in pattern_text(),
            r in replacement_text(),
            n in prop::option::of(-1i64..4),
        ) {
            let lua = LUA.with(|l| l.gsub(&s, &p, &r, n));
            prop_assert_eq!(my_gsub(&s, &p, &r, n), lua);
        }

        #[test]
        fn arbitrary_bytes_never_panic(
            s in prop::collection::vec(any::<u8>(), 0..64),
            p in prop::collection::vec(
                prop_oneof![any::<u8>(), prop::sample::select(b"^$*+?.([%-]bf019".to_vec())],
                0..24,
            ),
            r in prop::collection::vec(any::<u8>(), 0..8),
            init in any::<i64>(),
            plain in any::<bool>(),
        ) {
            let mut steps = Steps::new(200_000);
            let _ = find(&s, &p, init, plain, &mut steps);
            let _ = search(&s, &p, init, &mut steps);
            let mut state = GMatch::new(s.len(), init);
            while let Ok(Some(m)) = state.next(&s, &p, &mut steps) {
                let _ = m.values().count();
            }
            let _ = gsub(&s, &p, init, &mut steps, |m, _, out| {
                expand(&r, m, &s, out).map(|()| true)
            });
        }
    }
}
