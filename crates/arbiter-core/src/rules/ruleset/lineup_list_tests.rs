//! Issue 34: `[lineup] ratings`, `tolerance`, `max_gap` and `[lineup.cap]` read, refused at
//! their line and column, and written back.

use super::*;

fn read(text: &str) -> Result<Ruleset, RulesetError> {
    Ruleset::from_toml("rules.toml", text, &PresetsOnly)
}

#[test]
fn the_presets_order_by_the_leagues_own_ratings_with_no_tolerance_gap_or_cap() {
    for name in preset_names() {
        let r = Ruleset::preset(name).unwrap();
        assert_eq!(r.lineup.ratings, RatingSource::League, "{name}");
        assert_eq!(
            (r.lineup.tolerance, r.lineup.max_gap, r.lineup.cap),
            (0, None, RatingCap::default()),
            "{name}"
        );
        // Nothing new is written for them.
        let text = RulesetDocument::from(&r).to_toml().unwrap();
        for key in ["ratings", "tolerance", "max_gap", "[lineup.cap]"] {
            assert!(!text.contains(key), "{name}: {key} in {text}");
        }
    }
}

#[test]
fn the_settings_are_read_and_written_back() {
    let r = read(
        "extends = \"fide-team\"\n[lineup]\norder = \"rating\"\nratings = \"list\"\ntolerance = 20\nmax_gap = 400\n[lineup.cap]\naverage_of = 4\naverage_under = 2200\nunrated_as = 1200\n",
    )
    .unwrap();
    assert_eq!(r.lineup.ratings, RatingSource::List);
    assert_eq!((r.lineup.tolerance, r.lineup.max_gap), (20, Some(400)));
    assert_eq!(
        r.lineup.cap,
        RatingCap {
            player_max: None,
            team_total_max: None,
            average: Some(AverageCap { of: 4, under: 2200 }),
            unrated_as: 1200,
        }
    );
    let whole = RulesetDocument::from(&r).to_toml().unwrap();
    assert_eq!(read(&whole).unwrap(), r, "{whole}");
    let base = RulesetDocument::from(&Ruleset::preset("fide-team").unwrap());
    let changes = RulesetDocument::from(&r).changes_from("fide-team", &base);
    let text = changes.to_toml().unwrap();
    assert_eq!(read(&text).unwrap(), r, "{text}");
    // A league extending this one goes back to the league's own ratings and no cap: written
    // as such, it reads back.
    let back = r
        .with(|s| {
            s.lineup.ratings = RatingSource::League;
            s.lineup.tolerance = 0;
            s.lineup.cap = RatingCap::default();
        })
        .unwrap();
    let text = RulesetDocument::from(&back)
        .changes_from("mine", &RulesetDocument::from(&r))
        .to_toml()
        .unwrap();
    let doc: RulesetDocument = toml::from_str(&text).unwrap();
    let again = doc.apply("again.toml", Some(r.clone())).unwrap();
    assert_eq!(again, back, "{text}");
}

#[test]
fn a_mistake_is_reported_at_its_line_and_column() {
    let at = |text: &str| read(text).unwrap_err().to_string();
    assert_eq!(
        at("extends = \"gthscl\"\n[lineup]\ntolerance = -20\n"),
        "rules.toml:3:13: `[lineup] tolerance` is -20; a tolerance is a number of rating points, 0 or more"
    );
    assert_eq!(
        at("extends = \"gthscl\"\n[lineup]\nmax_gap = 0\n"),
        "rules.toml:3:11: `[lineup] max_gap` is 0; the gap between consecutive boards is a number of rating points, 1 or more (leave it out for no limit)"
    );
    let fide = at("extends = \"gthscl\"\n[lineup]\nratings = \"fide\"\n");
    assert!(fide.starts_with("rules.toml:3:11: "), "{fide}");
    assert!(fide.contains("`league`, `list`, `roster`"), "{fide}");
    let half = at("extends = \"gthscl\"\n[lineup.cap]\naverage_of = 4\n");
    assert!(
        half.starts_with("rules.toml:2:1: ") || half.starts_with("rules.toml:3:"),
        "{half}"
    );
    assert!(
        half.ends_with("`[lineup.cap] average_of` is 4 but no `average_under` says what the average must stay below; add e.g. average_under = 2200"),
        "{half}"
    );
    let negative = at("extends = \"gthscl\"\n[lineup.cap]\nplayer_max = -1\n");
    assert!(
        negative.ends_with(
            "`[lineup.cap] player_max` is -1; it is a number of rating points, 1 or more"
        ),
        "{negative}"
    );
    let typo = at("extends = \"gthscl\"\n[lineup.cap]\nteam_max = 500\n");
    assert!(typo.starts_with("rules.toml:3:1: "), "{typo}");
    assert!(typo.contains("team_total_max"), "{typo}");
}
