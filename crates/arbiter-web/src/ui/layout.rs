//! What every page has around its content: title, breadcrumbs, tabs and the link to the same
//! data from the API.

use crate::ui::link::Link;
use crate::ui::stylesheet::css_href;

#[derive(Debug)]
pub struct Tab {
    pub link: Link,
    pub current: bool,
}

/// What every page has around its content.
#[derive(Debug)]
pub struct Layout {
    pub title: String,
    pub heading: String,
    pub css: &'static str,
    pub crumbs: Vec<Link>,
    pub tabs: Vec<Tab>,
    /// The same data from the API.
    pub api: Option<String>,
}

/// A page for one person (a form, their account): no JSON twin.
pub fn private_layout(title: &str, crumbs: Vec<Link>) -> Layout {
    Layout {
        title: format!("{title} \u{2014} Arbiter"),
        heading: title.to_string(),
        css: css_href(),
        crumbs,
        tabs: Vec::new(),
        api: None,
    }
}

pub fn site_layout(title: String, heading: String, crumbs: Vec<Link>, api: String) -> Layout {
    Layout {
        title,
        heading,
        css: css_href(),
        crumbs,
        tabs: Vec::new(),
        api: Some(api),
    }
}
