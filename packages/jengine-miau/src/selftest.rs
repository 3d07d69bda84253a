//! Miau's hostile pack-script tests as data, for running them where libtest cannot (the wasm
//! build, beside the seam's sandbox suite in `jengine-web-selftest`).
//!
//! A test file lists its tests with [`list_cases!`]; natively `cargo test` runs them as usual
//! and a test here checks each list against its file. With the `selftest` feature, [`cases`]
//! hands them out as the seam's own [`jengine::selftest::Case`]s.

/// Names every test of a file, in file order, as its `CASES`.
macro_rules! list_cases {
    ($($name:ident),* $(,)?) => {
        /// This file's tests, for [`crate::selftest`].
        pub(crate) const CASES: $crate::selftest::CaseList = &[$((stringify!($name), $name)),*];
    };
}
pub(crate) use list_cases;

/// One file's tests: each one's name and function.
pub(crate) type CaseList = &'static [(&'static str, fn())];

/// The suite's files: the name a case is given under, and the file's list.
const FILES: &[(&str, CaseList)] = &[("miau::source_tests", crate::source::CASES)];

/// Every case of Miau's pack-script suite, named `miau::file::test`, in file order.
#[cfg(feature = "selftest")]
pub fn cases() -> Vec<jengine::selftest::Case> {
    FILES
        .iter()
        .flat_map(|(file, cases)| {
            cases
                .iter()
                .map(move |(test, run)| jengine::selftest::Case {
                    // Made once per case for the life of the program: the suite is a fixed list.
                    name: Box::leak(format!("{file}::{test}").into_boxed_str()),
                    run: *run,
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_test_is_listed_for_the_wasm_suite_and_none_is_a_plain_test() {
        let text = include_str!("source/source_tests.rs");
        assert!(
            !text.contains("#[test]\nfn "),
            "a plain #[test] would not run in the wasm32 suite; mark it #[cfg_attr(test, test)]"
        );
        let mut marked: Vec<&str> = text
            .split("#[cfg_attr(test, test)]\nfn ")
            .skip(1)
            .filter_map(|rest| rest.split('(').next())
            .collect();
        let (_, listed) = FILES[0];
        let mut listed: Vec<&str> = listed.iter().map(|(name, _)| *name).collect();
        marked.sort_unstable();
        listed.sort_unstable();
        assert_eq!(
            listed, marked,
            "source_tests.rs: its list_cases! list and its tests differ"
        );
    }
}
