//! The stylesheet and the build's identity: what a page looks like depends on the CSS and the
//! templates, so both are hashed into every ETag.

use std::sync::LazyLock;

use crate::ui::words::{FNV_OFFSET, fnv1a};

pub const CSS: &str = include_str!("../../static/arbiter.css");
pub const CSS_HASH: u64 = fnv1a(FNV_OFFSET, CSS.as_bytes());

/// What a page looks like depends on these files; a build with other ones gets other ETags.
const TEMPLATES: &[&str] = &[
    include_str!("../../templates/base.html"),
    include_str!("../../templates/public/home.html"),
    include_str!("../../templates/public/league.html"),
    include_str!("../../templates/public/competition.html"),
    include_str!("../../templates/public/standings_table.html"),
    include_str!("../../templates/public/crosstable.html"),
    include_str!("../../templates/public/round.html"),
    include_str!("../../templates/public/team.html"),
    include_str!("../../templates/public/player.html"),
    include_str!("../../templates/public/explain.html"),
    include_str!("../../templates/error.html"),
    include_str!("../../templates/public/match_row.html"),
    include_str!("../../templates/public/season_block.html"),
];

const fn build_hash() -> u64 {
    let mut h = fnv1a(FNV_OFFSET, env!("CARGO_PKG_VERSION").as_bytes());
    h = fnv1a(h, CSS.as_bytes());
    let mut i = 0;
    while i < TEMPLATES.len() {
        h = fnv1a(h, TEMPLATES[i].as_bytes());
        i += 1;
    }
    h
}

/// The build's identity in every ETag: a new release (or new templates) invalidates old pages.
pub const BUILD: u64 = build_hash();

pub static CSS_VERSION: LazyLock<String> = LazyLock::new(|| format!("{:012x}", CSS_HASH >> 16));
static CSS_HREF: LazyLock<String> =
    LazyLock::new(|| format!("/static/arbiter.css?v={}", CSS_VERSION.as_str()));

/// The stylesheet's versioned URL: pages link it, browsers keep it for a year.
pub fn css_href() -> &'static str {
    CSS_HREF.as_str()
}
