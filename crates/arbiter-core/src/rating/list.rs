//! Published rating lists: a federation's list (FIDE's monthly list, a national grading list)
//! as data, each in force from a day, and the players of a competition matched to it.
//!
//! A league that orders its boards by a published list (`[lineup] ratings = "list"`) reads a
//! player's rating from the list in force on the match day: the latest whose
//! [`RatingList::in_force_from`] is on or before it ([`in_force`]). A player is found on a list
//! by federation id ([`RatingRecord::federation_id`]), else by name and birth date
//! ([`RatingList::find`]); those found on none are listed for the officer ([`unmatched`]).
//!
//! [`RatingRecord::federation_id`]: crate::record::model::RatingRecord::federation_id

use jiff::civil::Date;

use crate::record::model::{Competition, Player};

/// A published rating list: its name, the day it is in force from, its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingList {
    /// As pages and messages name it: `FIDE standard, March 2027`.
    pub name: String,
    /// The first day the list orders boards; it stands until a later list is in force.
    pub in_force_from: Date,
    /// Its players, in the file's order.
    pub entries: Vec<ListedRating>,
}

/// One player of a published list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRating {
    /// The federation's id for the player (a FIDE id, an ECF code, a US Chess id).
    pub federation_id: String,
    /// The name as the list prints it (`Surname, First` on FIDE's lists).
    pub name: String,
    /// The birth year or date, when the list gives one.
    pub birth: Option<Birth>,
    /// The rating.
    pub rating: u32,
}

/// A birth as lists give it: FIDE's lists the year only, national lists often the date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Birth {
    /// The year only.
    Year(i16),
    /// The full date.
    Date(Date),
}

impl Birth {
    /// Whether a player born on `date` fits: the same day, or the same year for a year only.
    pub fn fits(self, date: Date) -> bool {
        match self {
            Birth::Year(y) => y == date.year(),
            Birth::Date(d) => d == date,
        }
    }
}

impl RatingList {
    /// The entry of `player`: the one with the player's federation id; without an id on the
    /// roster, the one of the same name (as [`same_name`] reads it) born on the player's
    /// birth date (the year, for a list that gives the year). Without a birth date on the
    /// roster, a name alone finds no one: two players share names.
    pub fn find(&self, player: &Player) -> Option<&ListedRating> {
        if let Some(id) = player.record.federation_id.as_deref() {
            return self
                .entries
                .iter()
                .find(|e| e.federation_id.trim() == id.trim());
        }
        let born = player.record.birth_date?;
        let mut found = self
            .entries
            .iter()
            .filter(|e| same_name(&e.name, &player.name) && e.birth.is_some_and(|b| b.fits(born)));
        let first = found.next()?;
        // Two entries of one name and birth are two people the list cannot tell apart.
        found.next().is_none().then_some(first)
    }
}

/// Whether a list's name and a roster's name are one: `Smith, John` and `John Smith` are,
/// case and spacing aside.
pub fn same_name(listed: &str, rostered: &str) -> bool {
    name_key(listed) == name_key(rostered)
}

/// A name as [`same_name`] compares it: its words in lowercase, sorted, one space apart
/// (`Smith, John` and `John Smith` are both `john smith`); what a store indexes a list by.
pub fn name_key(name: &str) -> String {
    let mut w: Vec<String> = name
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    w.sort();
    w.join(" ")
}

/// The list in force on `day`: the latest whose `in_force_from` is on or before it; without a
/// day, the latest of all.
pub fn in_force(lists: &[RatingList], day: Option<Date>) -> Option<&RatingList> {
    lists
        .iter()
        .filter(|l| day.is_none_or(|d| l.in_force_from <= d))
        .max_by_key(|l| l.in_force_from)
}

/// The players of `c` that `list` does not find ([`RatingList::find`]), for the officer to give
/// a federation id or a birth date: each with their team's name.
pub fn unmatched<'a>(c: &'a Competition, list: &RatingList) -> Vec<(&'a str, &'a Player)> {
    c.teams
        .iter()
        .flat_map(|t| t.players.iter().map(move |p| (t.name.as_str(), p)))
        .filter(|(_, p)| list.find(p).is_none())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{PlayerId, RatingRecord};

    fn player(name: &str, id: Option<&str>, born: Option<Date>) -> Player {
        Player {
            id: PlayerId(name.to_lowercase().replace(' ', "-")),
            name: name.into(),
            person: None,
            rating: None,
            provisional: false,
            record: RatingRecord {
                birth_date: born,
                federation_id: id.map(Into::into),
                ..RatingRecord::default()
            },
            unranked: false,
            school: None,
            withdrawn: None,
        }
    }

    fn listed(id: &str, name: &str, birth: Option<Birth>, rating: u32) -> ListedRating {
        ListedRating {
            federation_id: id.into(),
            name: name.into(),
            birth,
            rating,
        }
    }

    fn list(from: Date, entries: Vec<ListedRating>) -> RatingList {
        RatingList {
            name: format!("list of {from}"),
            in_force_from: from,
            entries,
        }
    }

    #[test]
    fn a_player_is_found_by_federation_id_else_by_name_and_birth() {
        let born = jiff::civil::date(2009, 4, 2);
        let l = list(
            jiff::civil::date(2027, 1, 1),
            vec![
                listed("2000001", "Smith, John", Some(Birth::Year(1990)), 2100),
                listed("2000002", "Novak, Eva", Some(Birth::Year(2009)), 1650),
                listed("2000003", "Novak, Eva", Some(Birth::Year(1975)), 1900),
            ],
        );
        // By id, whatever the name.
        let by_id = player("Johnny Smith", Some("2000001"), None);
        assert_eq!(l.find(&by_id).map(|e| e.rating), Some(2100));
        // An id the list lacks finds no one, even with the name on it.
        let wrong_id = player("John Smith", Some("999"), None);
        assert_eq!(l.find(&wrong_id), None);
        // Name and birth year tell the two Eva Novaks apart.
        let eva = player("Eva Novak", None, Some(born));
        assert_eq!(l.find(&eva).map(|e| e.rating), Some(1650));
        // A name without a birth date is not enough.
        assert_eq!(l.find(&player("Eva Novak", None, None)), None);
    }

    #[test]
    fn the_list_in_force_is_the_latest_from_on_or_before_the_day() {
        let jan = list(jiff::civil::date(2027, 1, 1), vec![]);
        let feb = list(jiff::civil::date(2027, 2, 1), vec![]);
        let lists = [feb.clone(), jan.clone()];
        let on = |d| in_force(&lists, Some(d)).map(|l| l.in_force_from);
        assert_eq!(on(jiff::civil::date(2026, 12, 31)), None);
        assert_eq!(on(jiff::civil::date(2027, 1, 31)), Some(jan.in_force_from));
        assert_eq!(on(jiff::civil::date(2027, 2, 1)), Some(feb.in_force_from));
        assert_eq!(
            in_force(&lists, None).map(|l| l.in_force_from),
            Some(feb.in_force_from)
        );
    }
}
