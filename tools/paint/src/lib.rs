//! The painting kit the games' art generators share.
//!
//! Art is painted by code: layers of signed-distance shapes and seeded noise ([`paint`],
//! [`noise`]) evaluated at pixel centres with nothing but correctly rounded float arithmetic,
//! then written with fixed PNG settings ([`encode`]). So a generator run on any machine writes
//! the same bytes as the files committed beside it, and a test can hold it to them.

pub mod encode;
pub mod generator;
pub mod noise;
pub mod paint;
