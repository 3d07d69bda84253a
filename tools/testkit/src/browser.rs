//! A small WebDriver client for tests that drive a page: it starts `chromedriver`, opens a
//! headless Chromium session through it and drives pages over the W3C WebDriver protocol.
//!
//! It uses only the standard library and `serde_json`: HTTP/1.1 is spoken by hand over a
//! `TcpStream`, and screenshots are decoded with a small base64 decoder of its own.
//!
//! A test calls [`available`] first and hands its error to [`skip_or_fail`] when Chromium is
//! missing. [`crate::web`] serves a web build's folder for it to load.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// The Enter key, for [`Element::send_keys`] and [`Browser::send_keys_to_active`].
pub const ENTER: &str = "\u{E007}";
/// The Tab key, for [`Element::send_keys`] and [`Browser::send_keys_to_active`].
pub const TAB: &str = "\u{E004}";

/// The key under which W3C WebDriver names an element in JSON (the spec's "web element
/// identifier").
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";
/// How long one HTTP request may wait on a read or a write.
const IO_TIMEOUT: Duration = Duration::from_secs(60);
/// How long chromedriver has to answer `/status` as ready after it is started.
const DRIVER_READY_TIMEOUT: Duration = Duration::from_secs(20);
/// How often [`Browser::wait_for`] and [`Browser::wait_until`] look again.
const POLL: Duration = Duration::from_millis(100);
/// The Chromium binary handed to chromedriver when it exists.
const CHROMIUM_BINARY: &str = "/usr/bin/chromium";
/// The line that installs both tools on Debian.
const INSTALL_HINT: &str = "apt-get install chromium chromium-driver";

/// Says whether `chromium` and `chromedriver` are both on PATH; the error names the missing
/// ones and the Debian install line.
pub fn available() -> Result<(), String> {
    let missing: Vec<&str> = ["chromium", "chromedriver"]
        .into_iter()
        .filter(|name| find_on_path(name).is_none())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} not found on PATH; install with: {INSTALL_HINT}",
            missing.join(" and ")
        ))
    }
}

/// Reports a test that cannot run: prints `skipped: <why>` to stderr, or panics with `why`
/// when the environment variable `JENGINE_REQUIRE_CHROMIUM` is `1` (so CI fails instead).
pub fn skip_or_fail(why: &str) {
    if std::env::var("JENGINE_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
        panic!("{why} (JENGINE_REQUIRE_CHROMIUM=1, so this cannot be skipped)");
    }
    eprintln!("skipped: {why}");
}

/// The first executable file called `name` in the PATH folders.
fn find_on_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|file| {
            std::fs::metadata(file)
                .map(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
        })
}

/// A headless Chromium driven through its own chromedriver.
///
/// Dropping it ends the session, stops chromedriver, ends any Chromium process still using
/// its profile and removes its temporary folder.
pub struct Browser {
    /// The open session; `None` only while starting.
    session: Option<Session>,
    /// The chromedriver process.
    driver: Driver,
    /// The temporary folder holding the Chromium profile and chromedriver's log.
    dir: TempDir,
}

impl Browser {
    /// Starts chromedriver on a free loopback port, waits until it is ready and opens a
    /// headless Chromium session with a fresh profile.
    pub fn start() -> Result<Browser, String> {
        available()?;
        let dir = TempDir::new()?;
        let profile = dir.path().join("profile");
        std::fs::create_dir_all(&profile)
            .map_err(|e| format!("cannot create {}: {e}", profile.display()))?;
        let log = dir.path().join("chromedriver.log");

        // The port is free when picked but another process could take it before chromedriver
        // binds it, so a driver that exits while starting is tried again on a new port.
        let mut attempt = 0;
        let driver = loop {
            attempt += 1;
            let port = free_port()?;
            let mut driver = Driver::spawn(port, &log)?;
            match driver.wait_ready(&log) {
                Ok(()) => break driver,
                Err(e) if attempt < 3 && driver.exited() => {
                    eprintln!("chromedriver did not start on port {port}, trying again: {e}");
                }
                Err(e) => return Err(e),
            }
        };

        let mut browser = Browser {
            session: None,
            driver,
            dir,
        };
        let mut args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--window-size=1400,900".to_string(),
        ];
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut options = json!({ "args": args });
        if Path::new(CHROMIUM_BINARY).exists() {
            options["binary"] = json!(CHROMIUM_BINARY);
        }
        let body = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": options,
                }
            }
        });
        let value = request(browser.driver.port, "POST", "/session", Some(&body))
            .map_err(|e| format!("cannot open a Chromium session: {e}{}", log_tail(&log)))?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| format!("new session answer has no sessionId: {value}"))?;
        browser.session = Some(Session {
            port: browser.driver.port,
            id: id.to_string(),
        });
        Ok(browser)
    }

    /// The open session.
    fn session(&self) -> &Session {
        self.session.as_ref().expect("the session is open")
    }

    /// Loads `url` in the current tab and waits for the page to load.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.session()
            .command("POST", "/url", Some(json!({ "url": url })))
            .map(drop)
    }

    /// The address of the current page.
    pub fn url(&self) -> Result<String, String> {
        string(self.session().command("GET", "/url", None)?)
    }

    /// The title of the current page.
    pub fn title(&self) -> Result<String, String> {
        string(self.session().command("GET", "/title", None)?)
    }

    /// The first element matching the CSS selector `css`.
    pub fn find(&self, css: &str) -> Result<Element, String> {
        let value = self
            .session()
            .command("POST", "/element", Some(by_css(css)))
            .map_err(|e| format!("find {css:?}: {e}"))?;
        Element::from_json(self.session(), &value)
    }

    /// Every element matching the CSS selector `css`, in document order.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element>, String> {
        let value = self
            .session()
            .command("POST", "/elements", Some(by_css(css)))
            .map_err(|e| format!("find all {css:?}: {e}"))?;
        elements(self.session(), value)
    }

    /// The first element matching `css`, looking every 100 ms until it appears or `timeout`
    /// passes. Errors other than "no such element" (a bad selector, a closed window) end the
    /// wait at once.
    pub fn wait_for(&self, css: &str, timeout: Duration) -> Result<Element, String> {
        let end = Instant::now() + timeout;
        loop {
            match self.find(css) {
                Ok(element) => return Ok(element),
                Err(e) if !e.contains("no such element") => return Err(e),
                Err(e) if Instant::now() >= end => {
                    return Err(format!("no element {css:?} after {timeout:?}: {e}"));
                }
                Err(_) => sleep(POLL),
            }
        }
    }

    /// Clicks the element matching `css`, finding it afresh when the page redrew it between the
    /// find and the click (a stale element), for up to `timeout`: a click waits on the page
    /// holding the element, never on an element found before a change.
    pub fn click(&self, css: &str, timeout: Duration) -> Result<(), String> {
        let end = Instant::now() + timeout;
        loop {
            let tried = self.wait_for(css, timeout).and_then(|e| e.click());
            match tried {
                Ok(()) => return Ok(()),
                // The page already redrew it: find the new one at once.
                Err(e) if e.contains("stale element") && Instant::now() < end => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Waits until the JavaScript expression `expr` is truthy, evaluating it every 100 ms
    /// until `timeout` passes. Script errors while waiting count as false; the last one is
    /// reported if time runs out.
    pub fn wait_until(&self, expr: &str, timeout: Duration) -> Result<(), String> {
        let script = format!("return Boolean({expr});");
        let end = Instant::now() + timeout;
        loop {
            let last = match self.execute(&script, vec![]) {
                Ok(Value::Bool(true)) => return Ok(()),
                Ok(value) => format!("it was {value}"),
                Err(e) => e,
            };
            if Instant::now() >= end {
                return Err(format!("`{expr}` not true after {timeout:?}: {last}"));
            }
            sleep(POLL);
        }
    }

    /// Runs `script` as the body of a function in the page and returns what it returns.
    /// `args` are its `arguments`; an [`Element`] is passed with [`Element::to_json`].
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, String> {
        self.session().command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Runs `script` like [`Browser::execute`], but its result is the value passed to the
    /// callback that is its last argument (`arguments[arguments.length - 1]`).
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value, String> {
        self.session().command(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Takes a screenshot of the viewport and writes it to `path` as a PNG file.
    pub fn screenshot_png(&self, path: &Path) -> Result<(), String> {
        let encoded = string(self.session().command("GET", "/screenshot", None)?)?;
        let png = base64_decode(&encoded)?;
        std::fs::write(path, png).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Types `text` into the element that has the focus (the page body when none has).
    pub fn send_keys_to_active(&self, text: &str) -> Result<(), String> {
        let value = self.session().command("GET", "/element/active", None)?;
        Element::from_json(self.session(), &value)?.send_keys(text)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(session) = self.session.take()
            && let Err(e) = session.command("DELETE", "", None)
        {
            eprintln!("webdriver: ending the session failed: {e}");
        }
        self.driver.stop();
        // chromedriver ends Chromium when the session ends; whatever is left still names the
        // profile on its command line.
        kill_processes_using(&self.dir.path().join("profile"));
    }
}

/// One element of the page, as WebDriver names it.
#[derive(Clone, Debug)]
pub struct Element {
    /// The session the element belongs to.
    session: Session,
    /// WebDriver's id for the element.
    pub id: String,
}

impl Element {
    /// Reads an element reference out of a WebDriver answer.
    fn from_json(session: &Session, value: &Value) -> Result<Element, String> {
        let id = value[ELEMENT_KEY]
            .as_str()
            .or_else(|| value["ELEMENT"].as_str())
            .ok_or_else(|| format!("not an element reference: {value}"))?;
        Ok(Element {
            session: session.clone(),
            id: id.to_string(),
        })
    }

    /// The element as a script argument for [`Browser::execute`].
    pub fn to_json(&self) -> Value {
        json!({ ELEMENT_KEY: self.id })
    }

    /// Runs one WebDriver command on this element; `suffix` follows `/element/<id>`.
    fn command(&self, method: &str, suffix: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/element/{}{suffix}", self.id);
        self.session.command(method, &path, body)
    }

    /// Clicks the middle of the element, scrolling it into view first.
    pub fn click(&self) -> Result<(), String> {
        self.command("POST", "/click", None).map(drop)
    }

    /// Empties an input, text area or editable element.
    pub fn clear(&self) -> Result<(), String> {
        self.command("POST", "/clear", None).map(drop)
    }

    /// Focuses the element and types `text` into it; [`ENTER`] and [`TAB`] press those keys.
    pub fn send_keys(&self, text: &str) -> Result<(), String> {
        self.command("POST", "/value", Some(json!({ "text": text })))
            .map(drop)
    }

    /// The element's rendered text, as the user sees it.
    pub fn text(&self) -> Result<String, String> {
        string(self.command("GET", "/text", None)?)
    }

    /// The element's attribute `name`, or `None` when it has none.
    pub fn attr(&self, name: &str) -> Result<Option<String>, String> {
        match self.command("GET", &format!("/attribute/{name}"), None)? {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            other => Ok(Some(other.to_string())),
        }
    }

    /// The element's DOM property `name` (such as `value` or `checked`), as JSON.
    pub fn property(&self, name: &str) -> Result<Value, String> {
        self.command("GET", &format!("/property/{name}"), None)
    }

    /// Whether the element is shown on the page.
    pub fn displayed(&self) -> Result<bool, String> {
        self.command("GET", "/displayed", None)?
            .as_bool()
            .ok_or_else(|| "displayed answer is not a boolean".to_string())
    }

    /// The first element inside this one matching the CSS selector `css`.
    pub fn find(&self, css: &str) -> Result<Element, String> {
        let value = self
            .command("POST", "/element", Some(by_css(css)))
            .map_err(|e| format!("find {css:?}: {e}"))?;
        Element::from_json(&self.session, &value)
    }

    /// Every element inside this one matching the CSS selector `css`.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element>, String> {
        let value = self
            .command("POST", "/elements", Some(by_css(css)))
            .map_err(|e| format!("find all {css:?}: {e}"))?;
        elements(&self.session, value)
    }
}

/// An open WebDriver session: chromedriver's port and the session id.
#[derive(Clone, Debug)]
struct Session {
    port: u16,
    id: String,
}

impl Session {
    /// Runs one command of this session; `suffix` follows `/session/<id>`.
    fn command(&self, method: &str, suffix: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{suffix}", self.id);
        request(self.port, method, &path, body.as_ref())
    }
}

/// The body of a find command for the CSS selector `css`.
fn by_css(css: &str) -> Value {
    json!({ "using": "css selector", "value": css })
}

/// Reads a list of element references.
fn elements(session: &Session, value: Value) -> Result<Vec<Element>, String> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|item| Element::from_json(session, item))
            .collect(),
        other => Err(format!("expected a list of elements, got {other}")),
    }
}

/// A JSON string's text.
fn string(value: Value) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(format!("expected a string, got {other}")),
    }
}

/// A running chromedriver, stopped (killed and waited for) when dropped.
struct Driver {
    child: Option<Child>,
    port: u16,
}

impl Driver {
    /// Starts chromedriver on `port`, its output going to the file `log`.
    fn spawn(port: u16, log: &Path) -> Result<Driver, String> {
        let out = File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("cannot share log: {e}"))?;
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start chromedriver ({INSTALL_HINT}): {e}"))?;
        Ok(Driver {
            child: Some(child),
            port,
        })
    }

    /// Waits until chromedriver's `/status` says it is ready, it exits, or 20 s pass.
    fn wait_ready(&mut self, log: &Path) -> Result<(), String> {
        let end = Instant::now() + DRIVER_READY_TIMEOUT;
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!(
                    "chromedriver exited while starting ({status}){}",
                    log_tail(log)
                ));
            }
            let last = match request(self.port, "GET", "/status", None) {
                Ok(value) if value["ready"] == Value::Bool(true) => return Ok(()),
                Ok(value) => format!("status {value}"),
                Err(e) => e,
            };
            if Instant::now() >= end {
                return Err(format!(
                    "chromedriver not ready after {DRIVER_READY_TIMEOUT:?}: {last}{}",
                    log_tail(log)
                ));
            }
            sleep(Duration::from_millis(50));
        }
    }

    /// Whether chromedriver has exited.
    fn exited(&mut self) -> bool {
        match self.child.as_mut() {
            Some(child) => matches!(child.try_wait(), Ok(Some(_))),
            None => true,
        }
    }

    /// Kills chromedriver and waits for it to exit; does nothing the second time.
    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The last lines of chromedriver's log, to add to an error message.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = &lines[lines.len().saturating_sub(20)..];
    if tail.is_empty() {
        String::new()
    } else {
        format!("\nchromedriver log:\n{}", tail.join("\n"))
    }
}

/// A loopback port that was free a moment ago.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|e| format!("cannot bind a loopback port: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound port: {e}"))?
        .port();
    Ok(port)
}

/// Kills (SIGKILL) every process whose command line mentions `profile`, which only the
/// Chromium started for that profile does.
fn kill_processes_using(profile: &Path) {
    let needle = profile.to_string_lossy().into_owned();
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(&needle) {
            let _ = Command::new("kill")
                .args(["-KILL", &name])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
}

/// A fresh folder under the system temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    /// Creates a folder whose name no other test or process uses.
    fn new() -> Result<TempDir, String> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let name = format!(
            "jengine-webdriver-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(TempDir(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // A process that is just ending may still write into the profile; try a few times.
        for _ in 0..10 {
            match std::fs::remove_dir_all(&self.0) {
                Ok(()) => return,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
                Err(_) => sleep(Duration::from_millis(50)),
            }
        }
    }
}

/// Sends one HTTP request to chromedriver on `port` and returns the `value` field of its
/// JSON answer. A WebDriver error in the answer becomes `Err` with its name and message.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let context = format!("{method} {path}");
    // WebDriver expects a JSON body with every POST, even an empty one.
    let body = match (method, body) {
        (_, Some(body)) => body.to_string(),
        ("POST", None) => "{}".to_string(),
        _ => String::new(),
    };
    let (status, bytes) = http(port, method, path, &body).map_err(|e| format!("{context}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let answer: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{context}: HTTP {status}, answer is not JSON ({e}): {}",
            text.chars().take(500).collect::<String>()
        )
    })?;
    let value = answer.get("value").cloned().unwrap_or(Value::Null);
    if let Some(error) = value.get("error").and_then(Value::as_str) {
        let message = value["message"].as_str().unwrap_or("");
        // chromedriver's message usually starts with the error's name already.
        let message = message
            .strip_prefix(error)
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(message);
        return Err(format!("{context}: {error}: {message}"));
    }
    if !(200..300).contains(&status) {
        return Err(format!("{context}: HTTP {status}: {text}"));
    }
    Ok(value)
}

/// One HTTP/1.1 exchange over a new connection (`Connection: close`): returns the status
/// code and the body, read by Content-Length, by chunks, or to the end of the stream.
fn http(port: u16, method: &str, path: &str, body: &str) -> Result<(u16, Vec<u8>), String> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10))
        .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(IO_TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(IO_TIMEOUT)))
        .map_err(|e| format!("cannot set timeouts: {e}"))?;

    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Accept: application/json\r\n"
    );
    if method == "POST" || !body.is_empty() {
        head.push_str("Content-Type: application/json; charset=utf-8\r\n");
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let mut message = head.into_bytes();
    message.extend_from_slice(body.as_bytes());
    stream
        .write_all(&message)
        .and_then(|()| stream.flush())
        .map_err(|e| format!("cannot send the request: {e}"))?;

    let mut reader = BufReader::new(stream);
    // Informational answers (100 Continue) come before the real one.
    let (status, headers) = loop {
        let (status, headers) = read_head(&mut reader)?;
        if !(100..200).contains(&status) {
            break (status, headers);
        }
    };
    let header = |name: &str| {
        headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    };

    let mut body = Vec::new();
    if method == "HEAD" || status == 204 || status == 304 {
        // No body.
    } else if header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
    {
        body = read_chunked(&mut reader)?;
    } else if let Some(length) = header("content-length") {
        let length: usize = length
            .trim()
            .parse()
            .map_err(|_| format!("bad Content-Length {length:?}"))?;
        body.resize(length, 0);
        reader
            .read_exact(&mut body)
            .map_err(|e| format!("answer body cut short: {e}"))?;
    } else {
        reader
            .read_to_end(&mut body)
            .map_err(|e| format!("cannot read the answer: {e}"))?;
    }
    Ok((status, body))
}

/// Reads one CRLF-ended line, without the line ending.
fn read_line(reader: &mut impl BufRead) -> Result<String, String> {
    let mut line = Vec::new();
    let n = reader
        .read_until(b'\n', &mut line)
        .map_err(|e| format!("cannot read the answer: {e}"))?;
    if n == 0 {
        return Err("connection closed before the answer ended".to_string());
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}

/// Reads a status line and the headers after it.
fn read_head(reader: &mut impl BufRead) -> Result<(u16, Vec<(String, String)>), String> {
    let status_line = read_line(reader)?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse::<u16>().ok())
        .filter(|_| status_line.starts_with("HTTP/"))
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut headers = Vec::new();
    loop {
        let line = read_line(reader)?;
        if line.is_empty() {
            return Ok((status, headers));
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
}

/// Reads a `Transfer-Encoding: chunked` body and the trailers after it.
fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line = read_line(reader)?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("bad chunk size line {line:?}"))?;
        if size == 0 {
            break;
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader
            .read_exact(&mut body[start..])
            .map_err(|e| format!("chunk cut short: {e}"))?;
        let end = read_line(reader)?;
        if !end.is_empty() {
            return Err(format!("chunk not followed by CRLF: {end:?}"));
        }
    }
    // Trailers, up to an empty line; a server that closes instead is accepted too.
    while let Ok(line) = read_line(reader) {
        if line.is_empty() {
            break;
        }
    }
    Ok(body)
}

/// Decodes standard base64 (`A-Z a-z 0-9 + /`, `=` padding); whitespace is skipped.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn sextet(byte: u8) -> Option<u32> {
        match byte {
            b'A'..=b'Z' => Some(u32::from(byte - b'A')),
            b'a'..=b'z' => Some(u32::from(byte - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(byte - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut bits: u32 = 0;
    let mut count = 0;
    let mut padding = false;
    for (i, byte) in text.bytes().enumerate() {
        if byte.is_ascii_whitespace() {
            continue;
        }
        if byte == b'=' {
            padding = true;
            continue;
        }
        if padding {
            return Err(format!("base64: data after padding at byte {i}"));
        }
        let value = sextet(byte).ok_or_else(|| format!("base64: bad byte {byte:#04x} at {i}"))?;
        bits = (bits << 6) | value;
        count += 1;
        if count == 4 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            bits = 0;
            count = 0;
        }
    }
    match count {
        0 => {}
        2 => out.push((bits >> 4) as u8),
        3 => out.extend_from_slice(&[(bits >> 10) as u8, (bits >> 2) as u8]),
        _ => return Err("base64: length is not a whole number of bytes".to_string()),
    }
    Ok(out)
}
