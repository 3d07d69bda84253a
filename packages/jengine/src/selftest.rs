//! The seam's sandbox suite as plain functions, for a platform where libtest cannot report.
//!
//! The hostile-script tests (`script/sandbox_tests.rs`, `library_tests.rs`, `proxy_tests.rs`)
//! are ordinary functions marked `#[cfg_attr(test, test)]`, and each file ends with
//! [`list_cases!`] naming every one. Natively they run under `cargo test`; built with the
//! `selftest` feature, [`cases`] hands them out so that a wasm32 module can run each under
//! the same Lua and report which failed. A case passes by returning and fails by panicking.

/// A test file's cases: each test's name and function.
pub(crate) type CaseList = &'static [(&'static str, fn())];

/// Lists a test file's cases as `CASES`, `(name, function)` pairs in file order.
macro_rules! list_cases {
    ($($name:ident),* $(,)?) => {
        /// This file's tests, for [`crate::selftest`].
        pub(crate) const CASES: $crate::selftest::CaseList = &[$((stringify!($name), $name)),*];
    };
}
pub(crate) use list_cases;

/// One test of the sandbox suite.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// `file::test`, as `cargo test` names it under `script::`.
    pub name: &'static str,
    /// Runs the test; it panics on failure.
    // Natively the cases run under libtest, which calls the functions itself.
    #[cfg_attr(not(feature = "selftest"), allow(dead_code))]
    pub run: fn(),
}

/// Every case of the sandbox suite, file by file, in file order.
pub fn cases() -> Vec<Case> {
    crate::script::SUITE
        .iter()
        .flat_map(|(file, cases)| {
            cases.iter().map(move |(test, run)| Case {
                name: leak_name(file, test),
                run: *run,
            })
        })
        .collect()
}

/// `file::test`, made once per case for the life of the program (the suite is a fixed list).
fn leak_name(file: &str, test: &str) -> &'static str {
    Box::leak(format!("{file}::{test}").into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every test function a suite file defines, by the attribute that marks it.
    fn defined(text: &str) -> Vec<String> {
        let mut names = Vec::new();
        let mut marked = false;
        for line in text.lines() {
            if marked && let Some(rest) = line.strip_prefix("fn ") {
                names.push(rest.split('(').next().unwrap_or_default().to_string());
            }
            marked = line.trim() == "#[cfg_attr(test, test)]";
        }
        names
    }

    #[test]
    fn every_suite_test_is_a_case_and_none_is_a_plain_test() {
        let files = [
            ("sandbox_tests", include_str!("script/sandbox_tests.rs")),
            ("library_tests", include_str!("script/library_tests.rs")),
            ("proxy_tests", include_str!("script/proxy_tests.rs")),
        ];
        let listed = cases();
        for (file, text) in files {
            assert!(
                !text.contains("#[test]\nfn "),
                "{file}: a plain #[test] would not run in the wasm32 suite; mark it #[cfg_attr(test, test)]"
            );
            let mut want: Vec<String> = defined(text)
                .into_iter()
                .map(|t| format!("{file}::{t}"))
                .collect();
            let mut have: Vec<String> = listed
                .iter()
                .filter(|c| c.name.starts_with(&format!("{file}::")))
                .map(|c| c.name.to_string())
                .collect();
            want.sort();
            have.sort();
            assert_eq!(
                have, want,
                "{file}: its list_cases! list and its tests differ"
            );
        }
    }
}
