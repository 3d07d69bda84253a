//! A package's docs page (Markdown, as `jengine docs` writes it) as a plain web page: headings,
//! paragraphs, lists, code blocks, tables and inline code. Everything is escaped; nothing in
//! the page's text can become markup.

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escaped text with `code` spans and **bold**.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&escape(part));
            out.push_str("</code>");
        } else {
            for (j, bit) in part.split("**").enumerate() {
                if j % 2 == 1 {
                    out.push_str("<b>");
                    out.push_str(&escape(bit));
                    out.push_str("</b>");
                } else {
                    out.push_str(&escape(bit));
                }
            }
        }
    }
    out
}

fn cells(line: &str) -> Vec<&str> {
    line.trim()
        .trim_start_matches('|')
        .trim_end_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

/// The page for package `name` from its Markdown `text`.
pub fn page(name: &str, text: &str) -> String {
    let mut body = String::new();
    let mut lines = text.lines().peekable();
    let mut list = false;
    let close_list = |body: &mut String, list: &mut bool| {
        if *list {
            body.push_str("</ul>\n");
            *list = false;
        }
    };
    while let Some(line) = lines.next() {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") {
            close_list(&mut body, &mut list);
            body.push_str("<pre><code>");
            for code in lines.by_ref() {
                if code.trim_start().starts_with("```") {
                    break;
                }
                body.push_str(&escape(code));
                body.push('\n');
            }
            body.push_str("</code></pre>\n");
        } else if let Some(h) = ["### ", "## ", "# "]
            .iter()
            .position(|p| trimmed.starts_with(p))
        {
            close_list(&mut body, &mut list);
            let level = 3 - h;
            let title = &trimmed[level + 1..];
            body.push_str(&format!("<h{level}>{}</h{level}>\n", inline(title)));
        } else if trimmed.starts_with('|') {
            close_list(&mut body, &mut list);
            body.push_str("<table>\n");
            let mut rows = vec![trimmed.to_string()];
            while let Some(next) = lines.peek() {
                if !next.trim_start().starts_with('|') {
                    break;
                }
                rows.push(next.trim().to_string());
                lines.next();
            }
            for (i, row) in rows.iter().enumerate() {
                if i == 1 && row.chars().all(|c| "|-: ".contains(c)) {
                    continue;
                }
                let tag = if i == 0 { "th" } else { "td" };
                body.push_str("<tr>");
                for cell in cells(row) {
                    body.push_str(&format!("<{tag}>{}</{tag}>", inline(cell)));
                }
                body.push_str("</tr>\n");
            }
            body.push_str("</table>\n");
        } else if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            if !list {
                body.push_str("<ul>\n");
                list = true;
            }
            body.push_str(&format!("<li>{}</li>\n", inline(item)));
        } else if trimmed.is_empty() {
            close_list(&mut body, &mut list);
        } else {
            close_list(&mut body, &mut list);
            body.push_str(&format!("<p>{}</p>\n", inline(trimmed)));
        }
    }
    close_list(&mut body, &mut list);
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{name} — docs</title>\n<style>body{{font:15px/1.5 system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#1d2230}}code{{background:#eef0f5;padding:0 .25em;border-radius:3px}}pre{{background:#eef0f5;padding:.8em;overflow:auto}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccd;padding:.2em .5em;text-align:left;vertical-align:top}}</style></head><body>\n{body}</body></html>\n",
        name = escape(name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_the_text_stays_text() {
        let page = page(
            "p<x>",
            "# Title `<b>`\n\n<script>alert(1)</script>\n\n- a **b**\n\n| k | v |\n|---|---|\n| `x` | <i> |\n\n```\n<tag>\n```\n",
        );
        assert!(!page.contains("<script>"));
        assert!(page.contains("<h1>Title <code>&lt;b&gt;</code></h1>"));
        assert!(page.contains("<li>a <b>b</b></li>"));
        assert!(page.contains("<tr><td><code>x</code></td><td>&lt;i&gt;</td></tr>"));
        assert!(page.contains("<pre><code>&lt;tag&gt;\n</code></pre>"));
        assert!(page.contains("<title>p&lt;x&gt; — docs</title>"));
    }
}
