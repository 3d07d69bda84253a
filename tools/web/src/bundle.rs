//! The bundle: a project's files packed into one download, name → bytes.
//!
//! The layout is plain enough to read in any language: the 8 bytes `JENGINE1`, a little-endian
//! `u32` file count, then for each file a `u32` name length, the name (UTF-8, `/`-separated,
//! relative to the project folder), a `u32` byte length and the bytes. Names are sorted, so the
//! same files always pack to the same bytes, and a rebuild can tell nothing changed.

use std::collections::BTreeMap;
use std::fmt;

/// The first bytes of every bundle.
pub const MAGIC: &[u8; 8] = b"JENGINE1";

/// Why bytes are not a bundle: what is wrong and at which byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleError {
    /// The offset the problem was found at.
    pub offset: usize,
    /// What is wrong there.
    pub problem: String,
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bundle byte {}: {}", self.offset, self.problem)
    }
}

impl std::error::Error for BundleError {}

/// Packs `files` (name → bytes) into one bundle.
pub fn pack(files: &BTreeMap<String, Vec<u8>>) -> Vec<u8> {
    let size: usize = files.iter().map(|(n, b)| 8 + n.len() + b.len()).sum();
    let mut out = Vec::with_capacity(12 + size);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(files.len() as u32).to_le_bytes());
    for (name, bytes) in files {
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// Reads a bundle back into its files. Anything malformed (a wrong start, a length past the
/// end, a name that is not UTF-8, a name given twice, bytes left over) is refused whole.
pub fn unpack(bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, BundleError> {
    let mut at = 0usize;
    let fail = |offset: usize, problem: String| BundleError { offset, problem };
    let take = |at: &mut usize, n: usize, what: &str| -> Result<&[u8], BundleError> {
        let end = at
            .checked_add(n)
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| {
                fail(
                    *at,
                    format!(
                        "{what} needs {n} bytes but only {} are left",
                        bytes.len() - *at
                    ),
                )
            })?;
        let slice = &bytes[*at..end];
        *at = end;
        Ok(slice)
    };
    let number = |at: &mut usize, what: &str| -> Result<usize, BundleError> {
        let b = take(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    if take(&mut at, MAGIC.len(), "the start")? != MAGIC {
        return Err(fail(
            0,
            "this is not a jengine bundle (it does not start with JENGINE1)".into(),
        ));
    }
    let count = number(&mut at, "the file count")?;
    let mut files = BTreeMap::new();
    for index in 0..count {
        let name_at = at;
        let len = number(&mut at, &format!("file {index}'s name length"))?;
        let name = take(&mut at, len, &format!("file {index}'s name"))?;
        let name = std::str::from_utf8(name)
            .map_err(|_| fail(name_at, format!("file {index}'s name is not UTF-8")))?
            .to_string();
        let len = number(&mut at, &format!("{name}'s length"))?;
        let data = take(&mut at, len, &format!("{name}'s bytes"))?.to_vec();
        if files.insert(name.clone(), data).is_some() {
            return Err(fail(name_at, format!("{name} is packed twice")));
        }
    }
    if at != bytes.len() {
        return Err(fail(
            at,
            format!("{} bytes follow the last file", bytes.len() - at),
        ));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_bundle_starts_with_its_magic_and_lists_files_by_name() {
        let mut files = BTreeMap::new();
        files.insert("project.jengine".to_string(), b"{}".to_vec());
        files.insert("assets/a.lua".to_string(), vec![]);
        let packed = pack(&files);
        assert_eq!(&packed[..8], MAGIC);
        assert_eq!(&packed[8..12], &2u32.to_le_bytes());
        // Sorted: the asset before the project file.
        assert_eq!(&packed[16..28], b"assets/a.lua");
        assert_eq!(unpack(&packed).unwrap(), files);
    }

    #[test]
    fn a_cut_or_padded_or_foreign_bundle_is_refused_with_where() {
        let mut files = BTreeMap::new();
        files.insert("x".to_string(), b"hello".to_vec());
        let packed = pack(&files);
        let cut = unpack(&packed[..packed.len() - 1]).unwrap_err();
        assert!(cut.to_string().contains("x's bytes needs 5 bytes"), "{cut}");
        let mut padded = packed.clone();
        padded.push(0);
        assert_eq!(unpack(&padded).unwrap_err().offset, packed.len());
        assert!(
            unpack(b"PK\x03\x04 not ours")
                .unwrap_err()
                .to_string()
                .contains("JENGINE1")
        );
        let mut twice = pack(&files);
        twice[8] = 2;
        twice.extend_from_slice(&packed[12..]);
        assert!(unpack(&twice).unwrap_err().problem.contains("packed twice"));
    }

    proptest! {
        #[test]
        fn any_files_pack_and_unpack_to_themselves(
            files in proptest::collection::btree_map("[a-z/._]{0,12}", proptest::collection::vec(any::<u8>(), 0..40), 0..6)
        ) {
            prop_assert_eq!(unpack(&pack(&files)).unwrap(), files);
        }

        #[test]
        fn any_bytes_unpack_or_are_refused_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = unpack(&bytes);
        }
    }
}
