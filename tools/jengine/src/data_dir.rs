//! Where a windowed run keeps the player's data: one folder per project under the user's data
//! folder, `$XDG_DATA_HOME/jengine/<project>` (else `~/.local/share/jengine/<project>`).
//!
//! The folder is named by the project's `name`, so it is checked first: a name that could
//! leave `jengine/` or is no plain folder name gets no folder, and the run keeps its data in
//! memory, saying why.

use std::path::PathBuf;

/// The longest project name used as a folder name, in bytes.
const MAX_NAME: usize = 100;

/// The player's data folder for the project `name`, from the environment's `XDG_DATA_HOME`
/// and `HOME`; or why there is none.
pub fn for_project(name: &str) -> Result<PathBuf, String> {
    resolve(
        name,
        std::env::var_os("XDG_DATA_HOME"),
        std::env::var_os("HOME"),
    )
}

/// [`for_project`] with the two variables given: an empty or relative `XDG_DATA_HOME` is
/// ignored, as the XDG base directory rules say.
pub fn resolve(
    name: &str,
    xdg_data_home: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Result<PathBuf, String> {
    check_name(name)?;
    let base = match xdg_data_home.map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => match home.map(PathBuf::from) {
            Some(home) if home.is_absolute() => home.join(".local/share"),
            _ => {
                return Err(
                    "neither XDG_DATA_HOME nor HOME names a folder to keep it in".to_string(),
                );
            }
        },
    };
    Ok(base.join("jengine").join(name))
}

/// Accepts a project name as one plain folder name: letters, digits, spaces and `-_.'+()`,
/// not starting with a dot or a space, not ending with a space, at most [`MAX_NAME`] bytes.
pub fn check_name(name: &str) -> Result<(), String> {
    let plain = |c: char| c.is_alphanumeric() || " -_.'+()".contains(c);
    let why = if name.is_empty() {
        "it is empty"
    } else if name.len() > MAX_NAME {
        "it is longer than 100 bytes"
    } else if name.starts_with(['.', ' ']) || name.ends_with(' ') {
        "it starts with a dot or a space, or ends with a space"
    } else if !name.chars().all(plain) {
        "a folder name here takes letters, digits, spaces and - _ . ' + ( ) only"
    } else {
        return Ok(());
    };
    Err(format!(
        "the project's name {name:?} cannot name a folder: {why}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<std::ffi::OsString> {
        Some(s.into())
    }

    #[test]
    fn xdg_data_home_wins_and_home_is_the_fallback() {
        assert_eq!(
            resolve("miau", os("/data"), os("/home/p")),
            Ok(PathBuf::from("/data/jengine/miau"))
        );
        assert_eq!(
            resolve("miau", None, os("/home/p")),
            Ok(PathBuf::from("/home/p/.local/share/jengine/miau"))
        );
        // Empty or relative XDG_DATA_HOME is ignored.
        for xdg in ["", "rel/data"] {
            assert_eq!(
                resolve("Seven Stairs", os(xdg), os("/home/p")),
                Ok(PathBuf::from("/home/p/.local/share/jengine/Seven Stairs"))
            );
        }
        assert!(resolve("miau", None, None).is_err());
        assert!(resolve("miau", os("x"), os("y")).is_err());
    }

    #[test]
    fn names_that_are_not_plain_folder_names_are_refused() {
        for good in ["miau", "kotodama", "arcade-classics", "言霊", "v1.2 (demo)"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "", ".", "..", "../x", "a/b", "a\\b", ".hidden", " x", "x ", "a\0b", "a\nb", "C:x",
            "~", "$HOME", "*",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name(&"x".repeat(MAX_NAME + 1)).is_err());
        assert!(check_name(&"x".repeat(MAX_NAME)).is_ok());
    }
}
