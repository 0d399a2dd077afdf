//! The settings of a season's rules that its officers change on the site (issue 32, item 5):
//! the entry fee (GT-O2), how many teams of each division the playoffs invite and how they are
//! played (GT-F3), and GT-P2's days to enter, confirm and ask to correct a result. Each is a
//! field of the ruleset, offered only when the ruleset has its section (an event has no fee, a
//! club league may have no playoffs), cited by the ruleset's own rule ID.
//!
//! A change is checked here as the ruleset file would be, and gives the new ruleset with one
//! [`SettingChange`] a field that changed; the caller stores the ruleset as a new version of
//! each of the season's competitions, so the history keeps the old value.

use std::fmt;

use crate::record::money::Money;
use crate::rules::ruleset::{MAX_PLAYOFF_TEAMS, PlayoffFormat, Ruleset};

/// GT-P2's days are counted in school days of a week or two; more than this is a typing mistake.
pub const MAX_REPORT_DAYS: u32 = 30;

/// One setting an officer may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Setting {
    /// `[fees] entry_fee`: what each school pays once a season (GT-O2).
    EntryFee,
    /// `[playoffs] qualifiers_per_division`: the teams of each division invited (GT-F3).
    PlayoffQualifiers,
    /// `[playoffs] format`: a knockout or a round robin of the qualifiers (GT-F3).
    PlayoffFormat,
    /// `[report] enter_within_days`: the home team enters the result (GT-P2).
    EnterWithinDays,
    /// `[report] confirm_within_days`: the visitors confirm or dispute it (GT-P2).
    ConfirmWithinDays,
    /// `[report] correct_within_days`: either school asks for a correction (GT-P2).
    CorrectWithinDays,
}

impl Setting {
    /// Every setting, in the order the page lists them.
    pub const ALL: [Setting; 6] = [
        Setting::EntryFee,
        Setting::PlayoffQualifiers,
        Setting::PlayoffFormat,
        Setting::EnterWithinDays,
        Setting::ConfirmWithinDays,
        Setting::CorrectWithinDays,
    ];

    /// The form's field and the ruleset file's key: `entry_fee`, `qualifiers_per_division` ….
    pub fn key(self) -> &'static str {
        match self {
            Setting::EntryFee => "entry_fee",
            Setting::PlayoffQualifiers => "qualifiers_per_division",
            Setting::PlayoffFormat => "playoff_format",
            Setting::EnterWithinDays => "enter_within_days",
            Setting::ConfirmWithinDays => "confirm_within_days",
            Setting::CorrectWithinDays => "correct_within_days",
        }
    }

    /// As a sentence names it: `the entry fee`.
    pub fn name(self) -> &'static str {
        match self {
            Setting::EntryFee => "the entry fee",
            Setting::PlayoffQualifiers => "the number of teams each division sends to the playoffs",
            Setting::PlayoffFormat => "the playoffs' format",
            Setting::EnterWithinDays => "the days to enter a result",
            Setting::ConfirmWithinDays => "the days to confirm a result",
            Setting::CorrectWithinDays => "the days to ask for a correction",
        }
    }

    /// What the form says of it.
    pub fn help(self) -> &'static str {
        match self {
            Setting::EntryFee => {
                "What each school pays once a season, however many teams it enters; a school's fee is waived in the fee ledger."
            }
            Setting::PlayoffQualifiers => {
                "The top teams of each division invited to the playoffs (1 to 16)."
            }
            Setting::PlayoffFormat => {
                "A knockout seeded from the qualification, or a round robin of the qualifiers."
            }
            Setting::EnterWithinDays => {
                "The home team enters the result within this many days of the match."
            }
            Setting::ConfirmWithinDays => {
                "The visitors confirm or dispute it within this many days of its entry."
            }
            Setting::CorrectWithinDays => {
                "Either school asks for a correction within this many days of the entry."
            }
        }
    }

    /// The ruleset's key in `[cite]` for the rule this setting sets.
    fn cite_key(self) -> &'static str {
        match self {
            Setting::EntryFee => "entry_fee",
            Setting::PlayoffQualifiers | Setting::PlayoffFormat => "qualifiers_per_division",
            Setting::EnterWithinDays | Setting::ConfirmWithinDays | Setting::CorrectWithinDays => {
                "report"
            }
        }
    }

    /// The rule the ruleset cites for it (`GT-O2`), if it cites one.
    pub fn rule(self, rules: &Ruleset) -> Option<&str> {
        rules.cite(self.cite_key())
    }

    /// Its value under `rules` as the form shows it (`10.00`, `2`, `knockout`), or `None` when
    /// the ruleset has no such section and the setting is not offered.
    pub fn value(self, rules: &Ruleset) -> Option<String> {
        let report = rules.report;
        let playoffs = rules.playoffs.as_ref();
        match self {
            Setting::EntryFee => rules.fees.map(|f| f.entry_fee.decimal()),
            Setting::PlayoffQualifiers => playoffs.map(|p| p.qualifiers_per_division.to_string()),
            Setting::PlayoffFormat => playoffs.map(|p| format_code(p.format).to_string()),
            Setting::EnterWithinDays => report.map(|d| d.enter_within.to_string()),
            Setting::ConfirmWithinDays => report.map(|d| d.confirm_within.to_string()),
            Setting::CorrectWithinDays => report.map(|d| d.correct_within.to_string()),
        }
    }

    /// Its value as a sentence says it: `$10.00`, `2`, `a knockout`, `5 days`.
    pub fn words(self, value: &str) -> String {
        match self {
            Setting::EntryFee => Money::parse(value).map_or(value.to_string(), |m| m.to_string()),
            Setting::PlayoffQualifiers => value.to_string(),
            Setting::PlayoffFormat => match value {
                "round_robin" => "a round robin".to_string(),
                _ => "a knockout".to_string(),
            },
            Setting::EnterWithinDays | Setting::ConfirmWithinDays | Setting::CorrectWithinDays => {
                match value {
                    "1" => "1 day".to_string(),
                    n => format!("{n} days"),
                }
            }
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// `knockout` or `round_robin`, as the ruleset file writes the format.
pub fn format_code(f: PlayoffFormat) -> &'static str {
    match f {
        PlayoffFormat::Knockout => "knockout",
        PlayoffFormat::RoundRobin => "round_robin",
    }
}

/// A setting that changed: its value before and after, as the form writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingChange {
    /// Which.
    pub setting: Setting,
    /// Its value before.
    pub before: String,
    /// Its value now.
    pub after: String,
}

impl SettingChange {
    /// `the entry fee (GT-O2) from $10.00 to $12.00`, citing the rule `rules` cites.
    pub fn sentence(&self, rules: &Ruleset) -> String {
        let rule = self
            .setting
            .rule(rules)
            .map_or(String::new(), |r| format!(" ({r})"));
        format!(
            "{}{rule} from {} to {}",
            self.setting.name(),
            self.setting.words(&self.before),
            self.setting.words(&self.after)
        )
    }
}

/// A setting as typed that cannot be: the setting and the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingProblem {
    /// Which.
    pub setting: Setting,
    /// What was wrong and what to type instead.
    pub message: String,
}

impl fmt::Display for SettingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What the season has done that a setting can no longer change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeasonSoFar {
    /// The playoffs are drawn: who was invited and how they play is settled (GT-F3).
    pub playoffs_drawn: bool,
}

/// `rules` with the settings as typed (`(setting, text)`; a setting left out keeps its value),
/// and what changed; or every problem: a value that is not one, out of its range, a setting the
/// ruleset does not have, or one the season has settled.
pub fn change(
    rules: &Ruleset,
    typed: &[(Setting, String)],
    so_far: SeasonSoFar,
) -> Result<(Ruleset, Vec<SettingChange>), Vec<SettingProblem>> {
    let mut problems = Vec::new();
    let mut changes = Vec::new();
    let mut spec = rules.clone().into_spec();
    for (setting, text) in typed {
        let setting = *setting;
        let text = text.trim();
        let Some(before) = setting.value(rules) else {
            problems.push(SettingProblem {
                setting,
                message: format!(
                    "The rules of {} have no {}; it cannot be set here.",
                    rules.name,
                    setting.name().trim_start_matches("the ")
                ),
            });
            continue;
        };
        let rule = setting
            .rule(rules)
            .map_or(String::new(), |r| format!(" ({r})"));
        let mut refuse = |message: String| problems.push(SettingProblem { setting, message });
        let after = match setting {
            Setting::EntryFee => match Money::parse(text) {
                Ok(m) => {
                    if let Some(f) = spec.fees.as_mut() {
                        f.entry_fee = m;
                    }
                    m.decimal()
                }
                Err(why) => {
                    refuse(format!("The entry fee{rule}: {why}"));
                    continue;
                }
            },
            Setting::PlayoffQualifiers => match text.parse::<u32>() {
                Ok(n) if (1..=MAX_PLAYOFF_TEAMS).contains(&n) => {
                    if let Some(p) = spec.playoffs.as_mut() {
                        p.qualifiers_per_division = n;
                    }
                    n.to_string()
                }
                _ => {
                    refuse(format!(
                        "“{text}” is not a number of teams from 1 to {MAX_PLAYOFF_TEAMS}; say how many teams of each division the playoffs invite{rule}."
                    ));
                    continue;
                }
            },
            Setting::PlayoffFormat => {
                let format = match text {
                    "knockout" => PlayoffFormat::Knockout,
                    "round_robin" => PlayoffFormat::RoundRobin,
                    _ => {
                        refuse(format!(
                            "“{text}” is not a format of the playoffs{rule}; choose knockout or round_robin."
                        ));
                        continue;
                    }
                };
                if let Some(p) = spec.playoffs.as_mut() {
                    p.format = format;
                }
                format_code(format).to_string()
            }
            Setting::EnterWithinDays | Setting::ConfirmWithinDays | Setting::CorrectWithinDays => {
                match text.parse::<u32>() {
                    Ok(n) if (1..=MAX_REPORT_DAYS).contains(&n) => {
                        if let Some(d) = spec.report.as_mut() {
                            match setting {
                                Setting::EnterWithinDays => d.enter_within = n,
                                Setting::ConfirmWithinDays => d.confirm_within = n,
                                _ => d.correct_within = n,
                            }
                        }
                        n.to_string()
                    }
                    _ => {
                        refuse(format!(
                            "“{text}” is not a number of days from 1 to {MAX_REPORT_DAYS} for {}{rule}.",
                            setting.name()
                        ));
                        continue;
                    }
                }
            }
        };
        if after == before {
            continue;
        }
        if so_far.playoffs_drawn
            && matches!(setting, Setting::PlayoffQualifiers | Setting::PlayoffFormat)
        {
            refuse(format!(
                "The playoffs are drawn already, so {} stays {}{rule}; it can change for next season.",
                setting.name(),
                setting.words(&before)
            ));
            continue;
        }
        changes.push(SettingChange {
            setting,
            before,
            after,
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    match Ruleset::new(spec) {
        Ok(changed) => Ok((changed, changes)),
        Err(why) => Err(vec![SettingProblem {
            setting: typed.first().map_or(Setting::EntryFee, |(s, _)| *s),
            message: why,
        }]),
    }
}

/// One setting across a season's competitions, as the settings page, the API and the CLI list
/// it: its value in the first competition's rules, and in each competition, in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonValue {
    /// Which.
    pub setting: Setting,
    /// Its value in the first competition's rules, as the form writes it.
    pub value: String,
    /// Its value in each competition; `None` where the rules lack it.
    pub each: Vec<Option<String>>,
}

impl SeasonValue {
    /// Whether the competitions disagree on it (saving then sets them alike).
    pub fn differs(&self) -> bool {
        self.each
            .iter()
            .any(|v| v.as_deref() != Some(self.value.as_str()))
    }

    /// `Metro Division $10.00, Wood County Division $12.00`: each competition's value, by the
    /// `names` of the competitions in their order.
    pub fn in_words<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> String {
        names
            .into_iter()
            .zip(&self.each)
            .map(|(name, v)| {
                let shown = v
                    .as_deref()
                    .map_or_else(|| "none".to_string(), |v| self.setting.words(v));
                format!("{name} {shown}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every setting the first competition's rules have, with its value in each competition.
pub fn season_values(competitions: &[&Ruleset]) -> Vec<SeasonValue> {
    let Some(first) = competitions.first() else {
        return Vec::new();
    };
    Setting::ALL
        .into_iter()
        .filter_map(|setting| {
            Some(SeasonValue {
                setting,
                value: setting.value(first)?,
                each: competitions.iter().map(|r| setting.value(r)).collect(),
            })
        })
        .collect()
}

/// A competition's new rules and what changed in them, or `None` when nothing did.
pub type CompetitionChange = Option<(Ruleset, Vec<SettingChange>)>;

/// A season's competitions changed alike (the site's form, `arbiter settings set`): for each
/// of `competitions`, its new rules and what changed, or `None` when nothing did; a setting a
/// competition's rules lack (a club's playoffs) is left alone there. Every problem once, or
/// none.
pub fn change_season(
    competitions: &[&Ruleset],
    typed: &[(Setting, String)],
    so_far: SeasonSoFar,
) -> Result<Vec<CompetitionChange>, Vec<SettingProblem>> {
    let mut problems: Vec<SettingProblem> = Vec::new();
    let mut out = Vec::new();
    for rules in competitions {
        let own: Vec<(Setting, String)> = typed
            .iter()
            .filter(|(setting, _)| setting.value(rules).is_some())
            .cloned()
            .collect();
        match change(rules, &own, so_far) {
            Ok((_, changes)) if changes.is_empty() => out.push(None),
            Ok(changed) => out.push(Some(changed)),
            Err(ps) => {
                for p in ps {
                    if !problems.iter().any(|q| q.message == p.message) {
                        problems.push(p);
                    }
                }
            }
        }
    }
    if typed
        .iter()
        .all(|(s, _)| competitions.iter().all(|r| s.value(r).is_none()))
    {
        for (setting, _) in typed {
            problems.push(SettingProblem {
                setting: *setting,
                message: format!(
                    "No competition of the season has {}; it cannot be set here.",
                    setting.name()
                ),
            });
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gthscl() -> Ruleset {
        Ruleset::preset("gthscl").unwrap()
    }

    fn typed(pairs: &[(Setting, &str)]) -> Vec<(Setting, String)> {
        pairs.iter().map(|(s, t)| (*s, t.to_string())).collect()
    }

    #[test]
    fn gt_o2_gt_f3_gt_p2_the_officers_change_the_fee_the_qualifiers_and_the_days() {
        let before = gthscl();
        let (after, changes) = change(
            &before,
            &typed(&[
                (Setting::EntryFee, "$12.50"),
                (Setting::PlayoffQualifiers, "4"),
                (Setting::PlayoffFormat, "knockout"),
                (Setting::EnterWithinDays, "2"),
            ]),
            SeasonSoFar::default(),
        )
        .unwrap();
        assert_eq!(after.fees.unwrap().entry_fee, Money::from_cents(1250));
        assert_eq!(after.playoffs.as_ref().unwrap().qualifiers_per_division, 4);
        assert_eq!(after.report.unwrap().enter_within, 2);
        // Unchanged: the format typed as it was, and everything not typed.
        assert_eq!(after.report.unwrap().confirm_within, 5);
        let said: Vec<String> = changes.iter().map(|c| c.sentence(&after)).collect();
        assert_eq!(
            said,
            [
                "the entry fee (GT-O2) from $10.00 to $12.50",
                "the number of teams each division sends to the playoffs (GT-F3) from 2 to 4",
                "the days to enter a result (GT-P2) from 1 day to 2 days",
            ]
        );
    }

    #[test]
    fn gt_f3_every_mistake_is_named_and_nothing_changes() {
        let problems = change(
            &gthscl(),
            &typed(&[
                (Setting::EntryFee, "ten"),
                (Setting::PlayoffQualifiers, "17"),
                (Setting::PlayoffFormat, "swiss"),
                (Setting::ConfirmWithinDays, "0"),
            ]),
            SeasonSoFar::default(),
        )
        .unwrap_err();
        let said: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(said.len(), 4, "{said:?}");
        assert!(
            said[0].starts_with("The entry fee (GT-O2): “ten” is not"),
            "{said:?}"
        );
        assert_eq!(
            said[1],
            "“17” is not a number of teams from 1 to 16; say how many teams of each division the playoffs invite (GT-F3)."
        );
        assert_eq!(
            said[2],
            "“swiss” is not a format of the playoffs (GT-F3); choose knockout or round_robin."
        );
        assert_eq!(
            said[3],
            "“0” is not a number of days from 1 to 30 for the days to confirm a result (GT-P2)."
        );
    }

    #[test]
    fn gt_f3_the_qualifiers_stay_once_the_playoffs_are_drawn() {
        let drawn = SeasonSoFar {
            playoffs_drawn: true,
        };
        let problems = change(
            &gthscl(),
            &typed(&[(Setting::PlayoffQualifiers, "3")]),
            drawn,
        )
        .unwrap_err();
        assert_eq!(
            problems[0].message,
            "The playoffs are drawn already, so the number of teams each division sends to the playoffs stays 2 (GT-F3); it can change for next season."
        );
        // The same number again is no change, and the fee may still change.
        let (_, changes) = change(
            &gthscl(),
            &typed(&[(Setting::PlayoffQualifiers, "2"), (Setting::EntryFee, "11")]),
            drawn,
        )
        .unwrap();
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].setting, Setting::EntryFee);
    }

    #[test]
    fn as_an_event_offers_no_fee_and_no_playoffs_to_set() {
        let astc = Ruleset::preset("astc").unwrap();
        assert_eq!(Setting::EntryFee.value(&astc), None);
        assert_eq!(Setting::PlayoffQualifiers.value(&astc), None);
        let problems = change(
            &astc,
            &typed(&[(Setting::EntryFee, "10")]),
            SeasonSoFar::default(),
        )
        .unwrap_err();
        assert_eq!(
            problems[0].message,
            format!(
                "The rules of {} have no entry fee; it cannot be set here.",
                astc.name
            )
        );
    }

    #[test]
    fn gt_o2_a_season_changes_alike_and_a_competition_without_the_setting_is_left_alone() {
        let gthscl = gthscl();
        let swiss = Ruleset::preset("fide-team").unwrap();
        let changed = change_season(
            &[&gthscl, &swiss, &gthscl],
            &typed(&[(Setting::EntryFee, "12")]),
            SeasonSoFar::default(),
        )
        .unwrap();
        assert_eq!(changed.len(), 3);
        assert!(changed[1].is_none(), "a team Swiss has no fee");
        let (rules, changes) = changed[0].as_ref().unwrap();
        assert_eq!(rules.fees.unwrap().entry_fee, Money::from_cents(1200));
        assert_eq!(changes.len(), 1);
        // Every problem once, however many competitions share it.
        let problems = change_season(
            &[&gthscl, &gthscl],
            &typed(&[(Setting::EntryFee, "x")]),
            SeasonSoFar::default(),
        )
        .unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        // A setting no competition has is refused, not silently dropped.
        let none = change_season(
            &[&swiss],
            &typed(&[(Setting::EntryFee, "12")]),
            SeasonSoFar::default(),
        )
        .unwrap_err();
        assert_eq!(
            none[0].message,
            "No competition of the season has the entry fee; it cannot be set here."
        );
    }

    #[test]
    fn gt_o2_a_seasons_values_say_where_its_competitions_differ() {
        let ten = gthscl();
        let (twelve, _) = change(
            &ten,
            &typed(&[(Setting::EntryFee, "12")]),
            SeasonSoFar::default(),
        )
        .unwrap();
        let values = season_values(&[&ten, &twelve]);
        let fee = values
            .iter()
            .find(|v| v.setting == Setting::EntryFee)
            .unwrap();
        assert_eq!(fee.value, "10.00");
        assert_eq!(
            fee.each,
            [Some("10.00".to_string()), Some("12.00".to_string())]
        );
        assert!(fee.differs());
        assert_eq!(
            fee.in_words(["Metro", "Wood County"]),
            "Metro $10.00, Wood County $12.00"
        );
        let days = values
            .iter()
            .find(|v| v.setting == Setting::EnterWithinDays)
            .unwrap();
        assert!(!days.differs());
        // An event's rules have none of these settings.
        assert!(season_values(&[&Ruleset::preset("astc").unwrap()]).is_empty());
    }
}
