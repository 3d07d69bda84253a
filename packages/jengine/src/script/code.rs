//! Lua source as code: comments and the insides of strings blanked, lines kept, so a scan for
//! calls (`jengine check`, and a refused command looking for its line) sees only code.

/// Lua source with comments and string contents blanked (line breaks kept), so a scan for
/// calls sees code only.
pub fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // A long bracket `[[`, `[==[` opening at `i`: its level.
    let long_open = |i: usize| -> Option<usize> {
        if b.get(i) != Some(&b'[') {
            return None;
        }
        let mut j = i + 1;
        while b.get(j) == Some(&b'=') {
            j += 1;
        }
        (b.get(j) == Some(&b'[')).then_some(j - i - 1)
    };
    // Blanks a long bracket's inside from `from`; where it ends, and whether it was closed.
    let skip_long = |from: usize, level: usize, out: &mut String| -> (usize, bool) {
        let close = format!("]{}]", "=".repeat(level));
        let (inside, after, closed) = match text[from..].find(&close) {
            Some(end) => (&text[from..from + end], from + end + close.len(), true),
            None => (&text[from..], text.len(), false),
        };
        out.extend(inside.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        (after, closed)
    };
    while i < b.len() {
        if b[i] == b'-' && b.get(i + 1) == Some(&b'-') {
            if let Some(level) = long_open(i + 2) {
                i = skip_long(i + 4 + level, level, &mut out).0;
            } else {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
        } else if let Some(level) = long_open(i) {
            out.push('"');
            let (after, closed) = skip_long(i + 2 + level, level, &mut out);
            i = after;
            if closed {
                out.push('"');
            }
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                    match b.get(i) {
                        // An escaped line break goes on with the string on the next line.
                        Some(b'\n') => out.push('\n'),
                        // `\z` skips the white space after it, line breaks too.
                        Some(b'z') => {
                            while b.get(i + 1).is_some_and(|c| c.is_ascii_whitespace()) {
                                i += 1;
                                if b[i] == b'\n' {
                                    out.push('\n');
                                }
                            }
                        }
                        _ => {}
                    }
                }
                i += 1;
            }
            out.push('"');
            if b.get(i) == Some(&q) {
                i += 1;
            }
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The lines (from 1) of `text` that call any of `names` (`Counter.add`, `counter_add`):
/// the name as a whole word in code, followed by `(`.
pub fn call_lines(text: &str, names: &[&str]) -> Vec<usize> {
    let code = code_only(text);
    let mut lines = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let calls = names.iter().any(|name| {
            line.match_indices(name).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + name.len()..].trim_start();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                    && after.starts_with('(')
            })
        });
        if calls {
            lines.push(i + 1);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn calls_are_found_in_code_only() {
        let text = "Counter.add(e, 1)\n-- Counter.add(e, 2)\nlocal s = \"Counter.add(e)\"\nx.Counter.add(e)\n  Counter.add (e, 3) counter_add(e, 4)\n--[[\nCounter.add(e)\n]] counter_add(e)\nMyCounter.add(e)";
        assert_eq!(call_lines(text, &["Counter.add", "counter_add"]), [1, 5, 8]);
        // A string goes on past an escaped line break and past `\z` and the lines it skips.
        let text = "s = \"a\\\nCounter.add(e)\"\nt = 'b\\z\n\n  Counter.add(e)'\nCounter.add(e)";
        assert_eq!(code_only(text).lines().count(), text.lines().count());
        assert_eq!(call_lines(text, &["Counter.add"]), [6]);
    }

    proptest! {
        /// Hostile text (unclosed strings and long brackets, escapes, multi-byte characters)
        /// keeps its lines and never panics the scan.
        #[test]
        fn hostile_text_keeps_its_lines(
            text in proptest::string::string_regex(
                "(Counter\\.add\\(|[\"'\\\\(),\\[\\]= ]|--|\\[=*\\[|\\]=*\\]|\n|\r|é|日|[a-z0-9.]){0,60}"
            ).unwrap()
        ) {
            let breaks = |t: &str| t.matches('\n').count();
            prop_assert_eq!(breaks(&code_only(&text)), breaks(&text));
            for line in call_lines(&text, &["Counter.add"]) {
                prop_assert!(line >= 1 && line <= text.lines().count());
            }
        }
    }
}
