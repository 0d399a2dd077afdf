//! Prints docs/permissions.md: `cargo run -p arbiter-core --example permissions_doc > docs/permissions.md`.

fn main() {
    print!("{}", arbiter_core::rules::permissions::render_markdown());
}
