//! Prints every standings table of the demo: `cargo run -p arbiter-demo --example print_standings`.

use arbiter_core::{Ruleset, standings};
use arbiter_demo::generate;

fn main() {
    let demo = generate(jiff::civil::date(2026, 12, 2));
    for l in &demo.leagues {
        for s in &l.seasons {
            for c in &s.competitions {
                let Some(r) = Ruleset::preset(&c.rules) else {
                    eprintln!("{}: unknown preset {}", c.name, c.rules);
                    continue;
                };
                let st = match standings(&c.competition, &r) {
                    Ok(st) => st,
                    Err(e) => {
                        eprintln!("{}: {e}", c.name);
                        continue;
                    }
                };
                println!("== {} {}", l.slug, c.name);
                for row in &st.rows {
                    let t = &c.competition.teams[row.team];
                    let vals: Vec<String> = row.values.iter().map(|v| v.display()).collect();
                    println!(
                        "{:>5} {:<45} {}{}",
                        row.place,
                        t.name,
                        vals.join(" "),
                        if row.dropped { " (dropped)" } else { "" }
                    );
                }
            }
        }
    }
}
