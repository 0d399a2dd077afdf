//! The JSON API at /api/v1: reads mirroring the public pages, and the result writes.

pub mod answer;
pub mod doc;
pub mod read;
pub mod write;
