//! Checks the test WebDriver client against real headless Chromium: a small page served from
//! this process is loaded, typed into, clicked, read back, sampled and photographed.
//!
//! Skipped (with a note on stderr) when `chromium` or `chromedriver` is missing, unless
//! `JENGINE_REQUIRE_CHROMIUM=1` is set, in which case a missing browser fails the test.

// The client allows its own unused items (`#![allow(dead_code)]`), so nothing is needed here.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use jengine_testkit::browser::{Browser, ENTER};
use serde_json::json;

/// The page under test: an input, a button that copies the input into `#out` (as does Enter
/// in the input), and a canvas painted red by its script.
const PAGE: &str = r#"<!doctype html>
<html>
<head><meta charset="utf-8"><title>webdriver self-test</title></head>
<body>
<input id="in" type="text">
<button id="go" type="button">Go</button>
<p id="out"></p>
<canvas id="c" width="64" height="64"></canvas>
<script>
  const input = document.getElementById('in');
  const out = document.getElementById('out');
  document.getElementById('go').addEventListener('click', () => {
    out.textContent = input.value;
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') out.textContent = 'enter:' + input.value;
  });
  const ctx = document.getElementById('c').getContext('2d');
  ctx.fillStyle = 'rgb(255, 0, 0)';
  ctx.fillRect(0, 0, 64, 64);
</script>
</body>
</html>
"#;

/// Serves `PAGE` at `/` (and 404 elsewhere) on a loopback port, one thread per connection;
/// returns the page's address.
fn serve_page() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer(stream));
        }
    });
    format!("http://127.0.0.1:{port}/")
}

/// Reads one request's head and answers it.
fn answer(mut stream: TcpStream) {
    // Chromium may open connections it never uses; do not wait on them forever.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let path = head.split_whitespace().nth(1).unwrap_or("");
    let (status, kind, body) = if path == "/" {
        ("200 OK", "text/html; charset=utf-8", PAGE)
    } else {
        ("404 Not Found", "text/plain", "not found")
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
}

#[test]
fn drives_a_page_in_headless_chromium() {
    if let Err(why) = jengine_testkit::browser::available() {
        jengine_testkit::browser::skip_or_fail(&why);
        return;
    }
    let url = serve_page();
    let browser = Browser::start().unwrap();
    browser.goto(&url).unwrap();
    assert_eq!(browser.url().unwrap(), url);
    assert_eq!(browser.title().unwrap(), "webdriver self-test");

    // Type, click, and wait for the page to copy the text.
    let input = browser.wait_for("#in", Duration::from_secs(10)).unwrap();
    input.send_keys("hello webdriver").unwrap();
    assert_eq!(input.property("value").unwrap(), json!("hello webdriver"));
    assert_eq!(input.attr("type").unwrap().as_deref(), Some("text"));
    browser.find("#go").unwrap().click().unwrap();
    browser
        .wait_until(
            "document.getElementById('out').textContent === 'hello webdriver'",
            Duration::from_secs(10),
        )
        .unwrap();
    assert_eq!(
        browser.find("#out").unwrap().text().unwrap(),
        "hello webdriver"
    );

    // Clear, type again and press Enter in the focused input.
    input.clear().unwrap();
    input.send_keys("again").unwrap();
    browser.send_keys_to_active(ENTER).unwrap();
    browser
        .wait_until(
            "document.getElementById('out').textContent === 'enter:again'",
            Duration::from_secs(10),
        )
        .unwrap();

    // Elements, script arguments and async scripts.
    assert_eq!(browser.find_all("input, button").unwrap().len(), 2);
    assert!(browser.find("#c").unwrap().displayed().unwrap());
    let tag = browser
        .execute("return arguments[0].tagName;", vec![input.to_json()])
        .unwrap();
    assert_eq!(tag, json!("INPUT"));
    let sum = browser
        .execute_async(
            "const done = arguments[arguments.length - 1]; setTimeout(() => done(arguments[0] + 1), 10);",
            vec![json!(41)],
        )
        .unwrap();
    assert_eq!(sum, json!(42));
    assert!(browser.find("#missing").is_err());

    // The canvas is red.
    let pixel = browser
        .execute(
            "const c = document.getElementById('c');\
             return Array.from(c.getContext('2d').getImageData(10, 10, 1, 1).data);",
            vec![],
        )
        .unwrap();
    assert_eq!(pixel, json!([255, 0, 0, 255]));

    // A screenshot is a PNG of some size.
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    browser.screenshot_png(&shot).unwrap();
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(png.len() > 1024, "screenshot is only {} bytes", png.len());
}

#[test]
fn base64_decodes_every_padding() {
    assert_eq!(jengine_testkit::browser::base64_decode("").unwrap(), b"");
    assert_eq!(
        jengine_testkit::browser::base64_decode("Zg==").unwrap(),
        b"f"
    );
    assert_eq!(
        jengine_testkit::browser::base64_decode("Zm8=").unwrap(),
        b"fo"
    );
    assert_eq!(
        jengine_testkit::browser::base64_decode("Zm9v").unwrap(),
        b"foo"
    );
    assert_eq!(
        jengine_testkit::browser::base64_decode("Zm9vYg==").unwrap(),
        b"foob"
    );
    assert_eq!(
        jengine_testkit::browser::base64_decode("Zm9v\nYmFy").unwrap(),
        b"foobar"
    );
    assert_eq!(
        jengine_testkit::browser::base64_decode("+/8=").unwrap(),
        [0xfb, 0xff]
    );
    assert!(jengine_testkit::browser::base64_decode("Zm9vY").is_err());
    assert!(jengine_testkit::browser::base64_decode("Zg==Zg").is_err());
    assert!(jengine_testkit::browser::base64_decode("Zm9v!").is_err());
}
