//! Compiles Lua 5.4 for `wasm32-unknown-unknown` (and does nothing for any other target).
//!
//! The C sources are the `lua-src` crate's, the ones mlua's `vendored` feature compiles
//! natively, found through `cargo metadata`. clang lowers Lua's setjmp/longjmp onto
//! WebAssembly exception handling; `c/sjlj.c` is the runtime that lowering calls, and Debian's
//! wasi-libc supplies the C library (its allocator left out: `malloc` and friends come from
//! the Rust side, so C and Rust share one heap).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to install when a tool is missing.
const INSTALL: &str = "install them with `apt-get install clang-19 lld-19 wasi-libc` (Debian) \
     and `rustup target add wasm32-unknown-unknown`";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=c");
    for var in ["JENGINE_WASM_CC", "JENGINE_WASM_AR", "JENGINE_WASI_LIBC"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if arch != "wasm32" || os != "unknown" {
        // Natively mlua's `vendored` feature builds the same sources itself.
        return;
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let here = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let lua = lua_sources(&here);
    println!("cargo:rerun-if-changed={}", lua.display());
    let clang = tool("JENGINE_WASM_CC", "clang-19");
    let ar = tool("JENGINE_WASM_AR", "llvm-ar-19");

    let mut build = cc::Build::new();
    build
        .compiler(&clang)
        .archiver(&ar)
        .cargo_warnings(false)
        .warnings(false)
        // The wasi-libc headers; the objects link into a wasm32-unknown-unknown module.
        .flag("--target=wasm32-wasi")
        // setjmp/longjmp become WebAssembly exception handling (the legacy encoding, the one
        // clang 19 emits and every current browser and Node 20 run).
        .flag("-mllvm")
        .flag("-wasm-enable-sjlj")
        .opt_level(2)
        .debug(false)
        .include(here.join("c/include"))
        .include(&lua)
        .flag("-include")
        .flag(here.join("c/web.h").to_str().expect("a UTF-8 path"))
        // As lua-src does for 5.4; LUA_USE_POSIX stays undefined (plain setjmp, no popen or
        // dlopen).
        .define("LUA_COMPAT_5_3", None);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&lua)
        .unwrap_or_else(|e| panic!("cannot read the Lua sources in {}: {e}", lua.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| !matches!(p.file_stem().and_then(|s| s.to_str()), Some("lua" | "luac")))
        .collect();
    files.sort();
    assert!(
        files.len() > 20,
        "{} holds {} C files, not Lua's sources",
        lua.display(),
        files.len()
    );
    build.files(&files).file(here.join("c/sjlj.c"));
    build.compile("jengine_web_lua");

    libc_without_allocator(&ar, &out);
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=jengine_wasi_c");
}

/// The compiler or archiver: the variable's value if set, else `default`; it must run.
fn tool(var: &str, default: &str) -> String {
    let name = env::var(var).unwrap_or_else(|_| default.to_string());
    match Command::new(&name).arg("--version").output() {
        Ok(o) if o.status.success() => name,
        _ => panic!("building Lua for wasm32 needs `{name}` (set {var} to use another); {INSTALL}"),
    }
}

/// Debian's prebuilt wasi-libc with its `dlmalloc.o` taken out.
fn libc_without_allocator(ar: &str, out: &Path) {
    let libc = env::var("JENGINE_WASI_LIBC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("/usr/lib/wasm32-wasi/libc.a"));
    println!("cargo:rerun-if-changed={}", libc.display());
    let copy = out.join("libjengine_wasi_c.a");
    std::fs::copy(&libc, &copy).unwrap_or_else(|e| {
        panic!(
            "building Lua for wasm32 needs wasi-libc's {} (set JENGINE_WASI_LIBC to use another): {e}; {INSTALL}",
            libc.display()
        )
    });
    let status = Command::new(ar)
        .arg("d")
        .arg(&copy)
        .arg("dlmalloc.o")
        .status()
        .unwrap_or_else(|e| panic!("cannot run {ar}: {e}"));
    assert!(
        status.success(),
        "{ar} could not take dlmalloc.o out of {}",
        copy.display()
    );
}

/// The `lua-5.4.*` folder of the `lua-src` package this crate depends on.
fn lua_sources(here: &Path) -> PathBuf {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = here.join("Cargo.toml");
    let output = Command::new(&cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--manifest-path",
        ])
        .arg(&manifest)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{cargo} metadata`: {e}"));
    assert!(
        output.status.success(),
        "`cargo metadata` failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let meta: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("a package list");
    let me = packages
        .iter()
        .find(|p| p["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
        .and_then(|p| p["id"].as_str())
        .expect("cargo metadata lists this crate");
    let lua_src = meta["resolve"]["nodes"]
        .as_array()
        .expect("a resolve graph")
        .iter()
        .find(|n| n["id"].as_str() == Some(me))
        .and_then(|n| n["deps"].as_array())
        .and_then(|deps| deps.iter().find(|d| d["name"] == "lua_src"))
        .and_then(|d| d["pkg"].as_str())
        .expect("this crate depends on lua-src");
    let root = packages
        .iter()
        .find(|p| p["id"].as_str() == Some(lua_src))
        .and_then(|p| p["manifest_path"].as_str())
        .map(|m| {
            Path::new(m)
                .parent()
                .expect("a manifest's folder")
                .to_path_buf()
        })
        .expect("cargo metadata lists lua-src");
    std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("lua-5.4"))
        })
        .unwrap_or_else(|| panic!("{} has no lua-5.4 folder", root.display()))
}
