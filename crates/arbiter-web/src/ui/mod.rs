//! The site's shared vocabulary, imported by every area and importing none: links and
//! addresses, the layout of a page, and how numbers, dates and results are written.

pub mod diagram;
pub mod layout;
pub mod link;
pub mod stylesheet;
pub mod words;
