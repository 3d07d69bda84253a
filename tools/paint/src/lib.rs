//! The painting kit the games' art generators share.
//!
//! Art is painted by code: layers of signed-distance shapes and seeded noise ([`paint`],
//! [`noise`]) evaluated at pixel centres with nothing but correctly rounded float arithmetic,
//! then written with fixed PNG settings ([`encode`]). So a generator run on any machine writes
//! the same bytes as the files committed beside it, and a test holds it to them with
//! [`committed`], the one check every art and sound tool makes of its committed output.

pub mod encode;
pub mod generator;
pub mod noise;
pub mod paint;

pub use jengine_committed as committed;
