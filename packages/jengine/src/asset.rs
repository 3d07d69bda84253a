//! Asset names: how scenes, scripts and tables name files inside a project folder.
//!
//! A name is joined onto one folder (`assets/textures/`, `assets/scripts/`, ...), so the one
//! rule is that the join can never land outside it: no `..` component, nothing absolute, no
//! drive or backslash that another platform would read as one, no NUL. Every loader asks
//! [`check_asset_name`] before it touches the file system.

use std::fmt;

/// Why an asset name was refused. Each variant keeps the name as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssetNameError {
    /// The name is empty, so it names no file.
    Empty,
    /// A `..` component, an absolute path or a drive would reach outside the folder.
    LeavesFolder(String),
    /// A backslash: a folder separator on Windows, so `a\..\b` would leave there.
    Backslash(String),
    /// A NUL character, which ends a path early on every system.
    Nul(String),
}

impl fmt::Display for AssetNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssetNameError::Empty => f.write_str("an empty asset name names no file"),
            AssetNameError::LeavesFolder(name) => write!(
                f,
                "{name:?} leaves its folder: asset names are relative paths inside it"
            ),
            AssetNameError::Backslash(name) => write!(
                f,
                "{name:?} contains a backslash: asset names separate folders with \"/\""
            ),
            AssetNameError::Nul(name) => write!(f, "{name:?} contains a NUL character"),
        }
    }
}

impl std::error::Error for AssetNameError {}

/// Accepts `name` when joining it onto its folder stays inside that folder on every platform.
///
/// Refused: empty names, `..` as any component, a leading `/` or `\`, a drive (`C:`) or any `:`
/// (a drive or a Windows stream), backslashes and NUL. `.` components and doubled `/` are
/// harmless and allowed.
pub fn check_asset_name(name: &str) -> Result<(), AssetNameError> {
    if name.is_empty() {
        return Err(AssetNameError::Empty);
    }
    if name.contains('\0') {
        return Err(AssetNameError::Nul(name.to_string()));
    }
    // A backslash that also climbs (`a\..\b`) is reported as leaving: that is what it does.
    let leaves = name.starts_with(['/', '\\'])
        || name.contains(':')
        || name.split(['/', '\\']).any(|part| part == "..");
    if leaves {
        return Err(AssetNameError::LeavesFolder(name.to_string()));
    }
    if name.contains('\\') {
        return Err(AssetNameError::Backslash(name.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::{Component, Path};

    #[test]
    fn plain_relative_names_are_accepted() {
        for name in [
            "box.png",
            "ui/panel.png",
            "./a.lua",
            "a//b.ttf",
            "title",
            "..a",
            "a..b/c",
        ] {
            assert_eq!(check_asset_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn hostile_names_are_refused_with_the_name() {
        let leaves = [
            "../../etc/passwd",
            "/etc/passwd",
            "a/../../b",
            "..",
            "a/..",
            "C:\\x",
            "C:x",
            "a\\..\\b",
            "\\\\server\\share\\x",
            "..\\x",
        ];
        for name in leaves {
            assert_eq!(
                check_asset_name(name),
                Err(AssetNameError::LeavesFolder(name.to_string())),
                "{name}"
            );
        }
        assert_eq!(
            check_asset_name("a\\b.png"),
            Err(AssetNameError::Backslash("a\\b.png".into()))
        );
        assert_eq!(
            check_asset_name("a\0.png"),
            Err(AssetNameError::Nul("a\0.png".into()))
        );
        assert_eq!(check_asset_name(""), Err(AssetNameError::Empty));
    }

    #[test]
    fn the_message_names_the_asset_and_the_rule() {
        assert_eq!(
            check_asset_name("../x.png").unwrap_err().to_string(),
            "\"../x.png\" leaves its folder: asset names are relative paths inside it"
        );
        assert_eq!(
            check_asset_name("a\0b").unwrap_err().to_string(),
            "\"a\\0b\" contains a NUL character"
        );
    }

    proptest! {
        #[test]
        fn an_accepted_name_joined_onto_a_folder_stays_inside_it(
            name in proptest::string::string_regex("[a-z./\\\\:C\\x00]{0,12}").unwrap()
        ) {
            if check_asset_name(&name).is_ok() {
                let joined = Path::new("base").join(&name);
                prop_assert!(joined.starts_with("base"), "{name:?}");
                prop_assert!(
                    joined.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)),
                    "{name:?}"
                );
                prop_assert!(!name.contains(['\\', '\0', ':']));
            }
        }

        #[test]
        fn any_string_is_answered_without_panicking(name in any::<String>()) {
            let _ = check_asset_name(&name);
        }
    }
}
