//! What a test of a web build needs besides the browser: whether this machine can build the
//! module at all ([`wasm_missing`]), and a static server for the build's folder ([`serve`]).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What is missing for a wasm build here, if anything.
pub fn wasm_missing() -> Option<String> {
    let cc = Command::new("clang-19").arg("--version").output();
    if !cc.is_ok_and(|o| o.status.success()) {
        return Some("clang-19".into());
    }
    if !Path::new("/usr/lib/wasm32-wasi/libc.a").is_file() {
        return Some("wasi-libc".into());
    }
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let target = sysroot.map(|s| s.join("lib/rustlib/wasm32-unknown-unknown/lib"));
    if !target.is_some_and(|t| t.is_dir()) {
        return Some("the wasm32-unknown-unknown target".into());
    }
    None
}

/// Serves the files of `dir` on 127.0.0.1 (GET only, no folders) on a thread of its own; the
/// address. The thread ends with the test.
pub fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            // A connection of its own thread: a browser opens some it never sends on.
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    address
}

/// Answers one request on `stream` with the file it names in `dir`.
fn answer(mut stream: std::net::TcpStream, dir: &Path) {
    let mut request = String::new();
    let mut reader = BufReader::new(&stream);
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers are read and ignored.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let name = path.trim_start_matches('/');
    let name = if name.is_empty() { "index.html" } else { name };
    let file = (!name.contains("..")).then(|| dir.join(name));
    let (status, kind, body) = match file.and_then(|f| std::fs::read(f).ok()) {
        Some(body) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            ("200 OK", kind, body)
        }
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}
