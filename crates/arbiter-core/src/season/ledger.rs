//! The fee ledger (GT-O2): what each school owes for a season, what it paid and was paid back,
//! what the league spent on prizes, and the cash it holds.
//!
//! GT-O2: the entry fee is per school, not per team: a school with three teams in the season
//! owes it once. The fee is the ruleset's `[fees] entry_fee` ([`Fees`]); a competition whose
//! rules have none (an ASTC event) makes its schools owe nothing.
//!
//! Nothing is edited or deleted. An entry recorded by mistake is undone by a
//! [`EntryKind::Reversal`] that names it, with the reason, and the right entry is recorded after
//! it; a reversed entry and its reversal count for nothing in the [`Statement`], and both stay in
//! the ledger. Money is counted in whole cents ([`Money`]), never in floating point.
//!
//! The officers may waive all or part of a school's fee ([`EntryKind::Waiver`], with the
//! reason): the school then owes that much less, and no money moves.

use std::collections::BTreeMap;
use std::fmt;

use jiff::ToSpan;
use jiff::civil::Date;

use crate::record::model::Competition;
use crate::record::text::{self, TextKind};
use crate::record::words::shortened;
use crate::season::fines::Fine;

pub use crate::record::money::Money;
pub use crate::rules::sections::Fees;

/// What an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryKind {
    /// A school pays (its entry fee, GT-O2).
    Payment,
    /// The league pays a school back (an overpayment, a team withdrawn before the season).
    Refund,
    /// A league expense: trophies and awards (GT-F1, GT-F3); no school.
    PrizePurchase,
    /// The league waives all or part of a school's entry fee (GT-O2), with the reason: the
    /// school owes that much less, and no money moves.
    Waiver,
    /// An entry recorded by mistake, undone: it names the entry, takes its school and amount,
    /// and says why. Both then count for nothing, and both stay.
    Reversal,
}

impl EntryKind {
    /// Every kind, in the order the ledger lists them.
    pub const ALL: [EntryKind; 5] = [
        EntryKind::Payment,
        EntryKind::Refund,
        EntryKind::PrizePurchase,
        EntryKind::Waiver,
        EntryKind::Reversal,
    ];

    /// The kinds a person records on the form; a reversal is made from the entry it undoes.
    pub const RECORDED: [EntryKind; 4] = [
        EntryKind::Payment,
        EntryKind::Refund,
        EntryKind::PrizePurchase,
        EntryKind::Waiver,
    ];

    /// `payment`, `refund`, `prize_purchase`, `waiver`, `reversal`: the word of every table,
    /// file and answer.
    pub fn code(self) -> &'static str {
        match self {
            EntryKind::Payment => "payment",
            EntryKind::Refund => "refund",
            EntryKind::PrizePurchase => "prize_purchase",
            EntryKind::Waiver => "waiver",
            EntryKind::Reversal => "reversal",
        }
    }

    /// Reads [`EntryKind::code`] back; also `prize purchase`, `Prize-purchase`, any case.
    pub fn from_code(s: &str) -> Option<EntryKind> {
        let s = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        EntryKind::ALL.into_iter().find(|k| k.code() == s)
    }

    /// `Payment`, `Refund`, `Prize purchase`, `Fee waived`, `Reversal`: as a page says it.
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Payment => "Payment",
            EntryKind::Refund => "Refund",
            EntryKind::PrizePurchase => "Prize purchase",
            EntryKind::Waiver => "Fee waived",
            EntryKind::Reversal => "Reversal",
        }
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One entry of a season's ledger, as kept. Who recorded it and when is the store's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1 for the season's first entry, then 2, 3 …: how a reversal names the entry it undoes.
    pub number: u32,
    /// What it records.
    pub kind: EntryKind,
    /// The school that paid or was paid back; none for a prize purchase (and for a reversal of
    /// one).
    pub school: Option<String>,
    /// Above zero: the direction is the kind's.
    pub amount: Money,
    /// The day the money moved.
    pub on: Date,
    /// What it was for (a cheque number, the trophies bought) or, for a reversal, why.
    pub note: String,
    /// For a reversal, the number of the entry it undoes.
    pub reverses: Option<u32>,
}

/// An entry as a person or a script types it, before [`Ledger::check`] reads it. Blank fields
/// count as not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryInput {
    /// `payment`, `refund`, `prize_purchase`, `waiver` or `reversal`.
    pub kind: String,
    /// The school's name, as the league knows it; blank for a prize purchase and a reversal.
    pub school: String,
    /// `10`, `10.50`, `$10.50`; blank for a reversal (it takes the entry's).
    pub amount: String,
    /// `2026-10-14`.
    pub on: String,
    /// What it was for; required for a prize purchase (what was bought), a waiver and a
    /// reversal (why).
    pub note: String,
    /// For a reversal, the number of the entry it undoes.
    pub reverses: String,
}

/// The day an entry is checked on and the season it is for: an entry's day is not after today,
/// nor more than a year outside the season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When<'a> {
    /// The day the entry is recorded (the clock is the caller's).
    pub today: Date,
    /// The season's name, for the sentences: `2026–27 season`, `2026-27`.
    pub season: &'a str,
    /// The season's first day, when it has one.
    pub starts: Option<Date>,
    /// The season's last day, when it has one.
    pub ends: Option<Date>,
}

/// Something wrong with an entry as typed: the field, and the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// `kind`, `school`, `amount`, `on`, `note` or `reverses`.
    pub field: &'static str,
    /// The sentence to show.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The fee each school owes for a season, and what a reader should know of how it was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dues {
    /// The fines the season's record assesses (`[fines]`, `season::fines`), each owed by its
    /// school besides the fee.
    pub fines: Vec<Fine>,
    /// Every school with a team in one of the season's competitions, by name, with its fee.
    pub schools: BTreeMap<String, Money>,
    /// The season's entry fee when every one of its competitions sets the same; `None` when
    /// none does, or they differ (a note then says so).
    pub fee: Option<Money>,
    /// Sentences for the statement: the competitions' rules set different fees.
    pub notes: Vec<String>,
}

/// GT-O2: each school with at least one team in the season's competitions owes the entry fee
/// once, not once a team. When the competitions' rules set different fees, a school owes the
/// highest of its own competitions', and a note says so; a competition with no `[fees]` makes
/// its schools owe nothing by it. A team that names no school (a state team at an event) owes
/// nothing.
pub fn dues<'a>(competitions: impl IntoIterator<Item = (&'a Competition, Option<Fees>)>) -> Dues {
    let mut schools: BTreeMap<String, Money> = BTreeMap::new();
    let mut fees: Vec<(String, Option<Money>)> = Vec::new();
    for (c, f) in competitions {
        let fee = f.map(|f| f.entry_fee);
        fees.push((c.name.clone(), fee));
        for school in c.teams.iter().filter_map(|t| t.school.as_deref()) {
            let owed = schools.entry(school.to_string()).or_default();
            *owed = (*owed).max(fee.unwrap_or_default());
        }
    }
    let mut notes = Vec::new();
    let first = fees.first().map(|(_, f)| *f);
    let agreed = fees.iter().all(|(_, f)| Some(*f) == first);
    if !agreed {
        let each: Vec<String> = fees
            .iter()
            .map(|(name, f)| match f {
                Some(f) => format!("{name} {f}"),
                None => format!("{name} none"),
            })
            .collect();
        notes.push(format!(
            "The season's competitions set different entry fees ({}); a school owes the fee once, the highest of its own competitions' (GT-O2).",
            each.join(", ")
        ));
    }
    Dues {
        fines: Vec::new(),
        schools,
        fee: first.flatten().filter(|_| agreed),
        notes,
    }
}

impl Dues {
    /// These dues with the season's fines: each fined school owes them besides its fee.
    pub fn with_fines(mut self, fines: Vec<Fine>) -> Dues {
        for f in &fines {
            self.schools.entry(f.school.clone()).or_default();
        }
        self.fines = fines;
        self
    }

    /// What `school` is fined in all.
    pub fn fined(&self, school: &str) -> Money {
        self.fines
            .iter()
            .filter(|f| f.school == school)
            .map(|f| f.amount)
            .sum()
    }
}

/// One school's line of the statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolLine {
    /// The school's name.
    pub school: String,
    /// The entry fee it owes this season (GT-O2).
    pub due: Money,
    /// Its payments in force.
    pub paid: Money,
    /// What the league paid it back.
    pub refunded: Money,
    /// What the league waived of its fee and fines.
    pub waived: Money,
    /// Its fines (`[fines]`), in all.
    pub fined: Money,
}

impl SchoolLine {
    /// What it still owes: the fee and its fines, less what was waived and what it paid, plus
    /// what it was paid back. Below zero, the school is in credit: the league owes it that much.
    pub fn owes(&self) -> Money {
        self.due + self.fined - self.waived - self.paid + self.refunded
    }

    /// `owes $10.00`, `paid in full`, `in credit $10.00`.
    pub fn standing(&self) -> String {
        let owes = self.owes();
        if owes.is_negative() {
            format!("in credit {}", owes.abs())
        } else if owes == Money::ZERO {
            "paid in full".to_string()
        } else {
            format!("owes {owes}")
        }
    }
}

/// A school's payments, refunds and waivers in force.
#[derive(Debug, Clone, Copy, Default)]
struct SchoolEntries {
    paid: Money,
    refunded: Money,
    waived: Money,
}

/// The league's totals for the season.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// The fees the schools owe (GT-O2).
    pub due: Money,
    /// What the schools paid.
    pub received: Money,
    /// What the league paid back.
    pub refunded: Money,
    /// What the league spent on prizes.
    pub prizes: Money,
    /// What the league waived of the fees and fines (no money moved).
    pub waived: Money,
    /// The fines the schools owe (`[fines]`).
    pub fined: Money,
    /// What schools still owe, added up over those that owe.
    pub outstanding: Money,
    /// What the league owes schools in credit.
    pub credit: Money,
}

impl Totals {
    /// The cash the ledger says the league holds: received, less refunds and prizes.
    pub fn cash(&self) -> Money {
        self.received - self.refunded - self.prizes
    }
}

/// What [`Ledger::statement`] gives: per school, the prize purchases, the totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Every school that owes a fee or has an entry, by name.
    pub schools: Vec<SchoolLine>,
    /// The prize purchases in force, in the ledger's order.
    pub prizes: Vec<Entry>,
    /// The league's totals.
    pub totals: Totals,
    /// What a reader should know: different fees across the season's competitions.
    pub notes: Vec<String>,
    /// The season's fines, each with its match and rule, in the record's order.
    pub fines: Vec<Fine>,
}

/// A season's ledger: the fees due and the entries, in the order they were recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    dues: Dues,
    entries: Vec<Entry>,
}

/// A day more than this far outside the season is a typing mistake (the year, most often).
fn span_outside() -> jiff::Span {
    1.year()
}

impl Ledger {
    /// The ledger of a season whose schools owe `dues`, with its `entries` (numbered 1, 2, …).
    pub fn new(dues: Dues, entries: Vec<Entry>) -> Ledger {
        Ledger { dues, entries }
    }

    /// Every entry, in the order recorded.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The fees due.
    pub fn dues(&self) -> &Dues {
        &self.dues
    }

    /// The schools that owe the season's fee: those with a team in it (GT-O2).
    pub fn schools(&self) -> impl Iterator<Item = &str> {
        self.dues.schools.keys().map(String::as_str)
    }

    /// The entry numbered `number`.
    pub fn entry(&self, number: u32) -> Option<&Entry> {
        self.entries.iter().find(|e| e.number == number)
    }

    /// The reversal that undoes entry `number`, if one does.
    pub fn reversal_of(&self, number: u32) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.kind == EntryKind::Reversal && e.reverses == Some(number))
    }

    /// The entry in force that `e` repeats (the same kind, school, amount and note), when there
    /// is one: the same payment typed twice is the mistake a reversal would then undo (GT-O2),
    /// so it is asked about before it is recorded. A reversal repeats nothing.
    pub fn repeated_by(&self, e: &Entry) -> Option<&Entry> {
        let plain = |n: &str| n.trim().to_lowercase();
        (e.kind != EntryKind::Reversal)
            .then(|| {
                self.entries.iter().find(|x| {
                    self.in_force(x)
                        && x.kind == e.kind
                        && x.school == e.school
                        && x.amount == e.amount
                        && plain(&x.note) == plain(&e.note)
                })
            })
            .flatten()
    }

    /// Whether the entry counts: neither reversed nor a reversal.
    pub fn in_force(&self, e: &Entry) -> bool {
        e.kind != EntryKind::Reversal && self.reversal_of(e.number).is_none()
    }

    /// The number the next entry takes.
    pub fn next_number(&self) -> u32 {
        self.entries.iter().map(|e| e.number).max().unwrap_or(0) + 1
    }

    /// The payments, refunds and waivers in force of each school with any.
    fn by_school(&self) -> BTreeMap<&str, SchoolEntries> {
        let mut out: BTreeMap<&str, SchoolEntries> = BTreeMap::new();
        for e in self.entries.iter().filter(|e| self.in_force(e)) {
            let Some(school) = e.school.as_deref() else {
                continue;
            };
            let sums = out.entry(school).or_default();
            match e.kind {
                EntryKind::Payment => sums.paid += e.amount,
                EntryKind::Refund => sums.refunded += e.amount,
                EntryKind::Waiver => sums.waived += e.amount,
                EntryKind::PrizePurchase | EntryKind::Reversal => {}
            }
        }
        out
    }

    /// Per school: the fee due, paid, refunded and what it owes; the prize purchases; and the
    /// league's totals. A reversed entry and its reversal count for nothing.
    pub fn statement(&self) -> Statement {
        let moved = self.by_school();
        let mut names: Vec<&str> = self.schools().collect();
        names.extend(moved.keys().copied());
        names.sort_unstable();
        names.dedup();
        let schools: Vec<SchoolLine> = names
            .into_iter()
            .map(|s| {
                let sums = moved.get(s).copied().unwrap_or_default();
                SchoolLine {
                    school: s.to_string(),
                    due: self.dues.schools.get(s).copied().unwrap_or_default(),
                    paid: sums.paid,
                    refunded: sums.refunded,
                    waived: sums.waived,
                    fined: self.dues.fined(s),
                }
            })
            .collect();
        let prizes: Vec<Entry> = self
            .entries
            .iter()
            .filter(|e| e.kind == EntryKind::PrizePurchase && self.in_force(e))
            .cloned()
            .collect();
        let totals = Totals {
            due: schools.iter().map(|l| l.due).sum(),
            received: schools.iter().map(|l| l.paid).sum(),
            refunded: schools.iter().map(|l| l.refunded).sum(),
            prizes: prizes.iter().map(|e| e.amount).sum(),
            waived: schools.iter().map(|l| l.waived).sum(),
            fined: schools.iter().map(|l| l.fined).sum(),
            outstanding: schools
                .iter()
                .map(SchoolLine::owes)
                .filter(|o| *o > Money::ZERO)
                .sum(),
            credit: schools
                .iter()
                .map(SchoolLine::owes)
                .filter(|o| o.is_negative())
                .map(Money::abs)
                .sum(),
        };
        Statement {
            schools,
            prizes,
            totals,
            notes: self.dues.notes.clone(),
            fines: self.dues.fines.clone(),
        }
    }

    /// The entry `input` asks for, numbered [`Ledger::next_number`], or every problem with it:
    /// a kind that is none, a school with no team in the season (GT-O2) or one given to a
    /// prize purchase, an amount that is not one or is zero, a day that is not one or is after
    /// today or more than a year outside the season, a note too long or missing where it is
    /// needed, a reversal of an entry that is not there or already undone, and a refund that
    /// would pay a school back more than it paid (GT-O2).
    pub fn check(&self, input: &EntryInput, when: &When<'_>) -> Result<Entry, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut problem = |field: &'static str, message: String| {
            problems.push(Problem { field, message });
        };
        let kind_text = input.kind.trim();
        let kind = if kind_text.is_empty() {
            problem(
                "kind",
                "Choose what the entry records: a payment, a refund, a prize purchase or a fee waived.".into(),
            );
            None
        } else {
            let kind = EntryKind::from_code(kind_text);
            if kind.is_none() {
                problem(
                    "kind",
                    format!(
                        "“{}” is not a kind of ledger entry: choose payment (a school pays its fee), refund (the league pays a school back), prize_purchase (trophies and awards, GT-F1, GT-F3), waiver (all or part of a school's fee waived, with the reason) or reversal (an entry recorded by mistake, undone).",
                        shortened(kind_text)
                    ),
                );
            }
            kind
        };

        let on = match input.on.trim() {
            "" => {
                problem(
                    "on",
                    "Give the day the money moved, such as 2026-10-14.".into(),
                );
                None
            }
            t => match t.parse::<Date>() {
                Ok(d) => Some(d),
                Err(_) => {
                    problem(
                        "on",
                        format!(
                            "“{}” is not a day; write it as year-month-day, such as 2026-10-14.",
                            shortened(t)
                        ),
                    );
                    None
                }
            },
        };
        if let Some(d) = on {
            if d > when.today {
                problem(
                    "on",
                    format!(
                        "{d} is still to come (today is {}); record an entry on or after the day the money moves.",
                        when.today
                    ),
                );
            } else if let Some(s) = when.starts
                && d < s.saturating_sub(span_outside())
            {
                problem(
                    "on",
                    format!(
                        "{d} is more than a year before the season starts ({}: {s}); check the year.",
                        when.season
                    ),
                );
            } else if let Some(e) = when.ends
                && d > e.saturating_add(span_outside())
            {
                problem(
                    "on",
                    format!(
                        "{d} is more than a year after the season ended ({}: {e}); check the year, or record it in a later season's ledger.",
                        when.season
                    ),
                );
            }
        }

        let note = input.note.trim();
        if let Err(e) = text::check(TextKind::Reason, "the note", note) {
            problem("note", e.to_string());
        }

        let mut school: Option<String> = None;
        let mut amount = Money::ZERO;
        let mut reverses = None;
        match kind {
            Some(k @ (EntryKind::Payment | EntryKind::Refund)) => {
                school = self.school_of(input.school.trim(), k, &mut problem);
                amount = read_amount(&input.amount, &mut problem).unwrap_or_default();
            }
            Some(EntryKind::Waiver) => {
                school = self.school_of(input.school.trim(), EntryKind::Waiver, &mut problem);
                amount = read_amount(&input.amount, &mut problem).unwrap_or_default();
                if note.is_empty() {
                    problem(
                        "note",
                        "Say why the fee is waived (a school new to the league, hardship); the reason stays with the entry.".into(),
                    );
                }
            }
            Some(EntryKind::PrizePurchase) => {
                if !input.school.trim().is_empty() {
                    problem(
                        "school",
                        "A prize purchase is the league's own expense (GT-O2): it names no school; leave the school empty.".into(),
                    );
                }
                amount = read_amount(&input.amount, &mut problem).unwrap_or_default();
                if note.is_empty() {
                    problem(
                        "note",
                        "Say what was bought (the division trophies, GT-F1); the note stays with the entry.".into(),
                    );
                }
            }
            Some(EntryKind::Reversal) => {
                if let Some(undone) = self.reversed_entry(input.reverses.trim(), &mut problem) {
                    school = undone.school.clone();
                    amount = undone.amount;
                    reverses = Some(undone.number);
                    if note.is_empty() {
                        problem(
                            "note",
                            format!(
                                "Say why entry {} is reversed (required); the reason stays in the ledger.",
                                undone.number
                            ),
                        );
                    }
                }
            }
            None => {}
        }

        // GT-O2: the league pays a school back at most what it paid, and waives at most the
        // fee it owes.
        if let (Some(k), Some(s)) = (kind, school.as_deref()) {
            let SchoolEntries {
                paid,
                refunded,
                waived,
            } = self.by_school().get(s).copied().unwrap_or_default();
            let due = self.dues.schools.get(s).copied().unwrap_or_default();
            let fined = self.dues.fined(s);
            let undone = reverses.and_then(|n| self.entry(n)).map(|e| e.kind);
            let owed = if fined == Money::ZERO {
                format!("{s}'s entry fee is {due}")
            } else {
                format!("{s}'s entry fee is {due} and its fines {fined}")
            };
            let what = if fined == Money::ZERO {
                "the fee"
            } else {
                "the fee and fines"
            };
            match (k, undone) {
                (EntryKind::Waiver, _) if amount > Money::ZERO && waived + amount > due + fined => {
                    problem(
                        "amount",
                        if waived == Money::ZERO {
                            format!(
                                "{owed}; a waiver of {amount} would waive more than {what} (GT-O2)."
                            )
                        } else {
                            format!(
                                "{owed} and {waived} of it is waived already; a waiver of {amount} would waive more than {what} (GT-O2)."
                            )
                        },
                    );
                }
                (EntryKind::Refund, _) if amount > Money::ZERO && refunded + amount > paid => {
                    problem(
                        "amount",
                        format!(
                            "{s} has paid {paid} and been refunded {refunded}; a refund of {amount} would pay it back more than it paid (GT-O2)."
                        ),
                    );
                }
                (EntryKind::Reversal, Some(EntryKind::Payment)) if refunded > paid - amount => {
                    problem(
                        "reverses",
                        format!(
                            "Reversing this payment would leave {s} refunded {refunded} of {} paid; reverse the refund first (GT-O2).",
                            paid - amount
                        ),
                    );
                }
                _ => {}
            }
        }

        if !problems.is_empty() {
            return Err(problems);
        }
        match (kind, on) {
            (Some(kind), Some(on)) => Ok(Entry {
                number: self.next_number(),
                kind,
                school,
                amount,
                on,
                note: note.to_string(),
                reverses,
            }),
            // Either missing has pushed its problem above.
            _ => Err(Vec::new()),
        }
    }

    /// The season's school named `name` for a payment or a refund, or the problem (GT-O2).
    fn school_of(
        &self,
        name: &str,
        kind: EntryKind,
        problem: &mut impl FnMut(&'static str, String),
    ) -> Option<String> {
        let who = match kind {
            EntryKind::Refund => "is paid back",
            EntryKind::Waiver => "has its fee waived",
            _ => "pays",
        };
        if name.is_empty() {
            problem(
                "school",
                format!(
                    "Choose the school that {who}; each school with a team in the season owes its fee once (GT-O2)."
                ),
            );
            return None;
        }
        if let Err(e) = text::check(TextKind::Name, "the school's name", name) {
            problem("school", e.to_string());
            return None;
        }
        if self.dues.schools.contains_key(name) {
            return Some(name.to_string());
        }
        problem(
            "school",
            format!(
                "“{name}” has no team in this season, so it owes no fee here (GT-O2); choose one of the season's {} schools.",
                self.dues.schools.len()
            ),
        );
        None
    }

    /// The entry a reversal names by its number, or the problem: not a number, not there, a
    /// reversal itself, or undone already.
    fn reversed_entry(
        &self,
        number: &str,
        problem: &mut impl FnMut(&'static str, String),
    ) -> Option<&Entry> {
        if number.is_empty() {
            problem(
                "reverses",
                "Name the entry the reversal undoes, by its number.".into(),
            );
            return None;
        }
        let Ok(n) = number.trim_start_matches('#').parse::<u32>() else {
            problem(
                "reverses",
                format!(
                    "“{}” is not an entry's number; the ledger numbers its entries 1, 2, 3 ….",
                    shortened(number)
                ),
            );
            return None;
        };
        let Some(e) = self.entry(n) else {
            problem(
                "reverses",
                format!(
                    "The ledger has no entry {n}; it has {} so far.",
                    self.entries.len()
                ),
            );
            return None;
        };
        if e.kind == EntryKind::Reversal {
            problem(
                "reverses",
                format!(
                    "Entry {n} is itself a reversal; to record entry {} again, record it anew.",
                    e.reverses.unwrap_or(0)
                ),
            );
            return None;
        }
        if let Some(r) = self.reversal_of(n) {
            problem(
                "reverses",
                format!("Entry {n} was reversed already, by entry {}.", r.number),
            );
            return None;
        }
        Some(e)
    }
}

/// An entry's amount, above zero, or the problem.
fn read_amount(text: &str, problem: &mut impl FnMut(&'static str, String)) -> Option<Money> {
    match Money::parse(text) {
        Ok(m) if m == Money::ZERO => {
            problem(
                "amount",
                "An amount of $0.00 records nothing; give the amount that was paid, paid back or spent.".into(),
            );
            None
        }
        Ok(m) => Some(m),
        Err(why) => {
            problem("amount", why);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{Team, TeamId};
    use jiff::civil::date;

    fn team(id: &str, school: &str) -> Team {
        Team {
            id: TeamId(id.into()),
            name: id.into(),
            school: Some(school.into()),
            players: Vec::new(),
        }
    }

    fn division(name: &str, teams: Vec<Team>) -> Competition {
        Competition {
            name: name.into(),
            teams,
            rounds: Vec::new(),
        }
    }

    const TEN: Fees = Fees {
        entry_fee: Money::from_cents(1000),
    };

    /// Two divisions: Perrysburg has a team in each, St. John's Jesuit two in one.
    fn season() -> Vec<Competition> {
        vec![
            division(
                "Metro",
                vec![
                    team("sjj-a", "St. John's Jesuit"),
                    team("sjj-b", "St. John's Jesuit"),
                    team("start", "Start"),
                ],
            ),
            division(
                "Wood County",
                vec![
                    team("perrysburg", "Perrysburg"),
                    team("bg", "Bowling Green"),
                ],
            ),
        ]
    }

    fn ledger(entries: Vec<Entry>) -> Ledger {
        let cs = season();
        Ledger::new(dues(cs.iter().map(|c| (c, Some(TEN)))), entries)
    }

    const WHEN: When<'static> = When {
        today: date(2026, 11, 30),
        season: "2026–27 season",
        starts: Some(date(2026, 10, 5)),
        ends: Some(date(2027, 2, 24)),
    };

    fn input(kind: &str, school: &str, amount: &str, on: &str, note: &str) -> EntryInput {
        EntryInput {
            kind: kind.into(),
            school: school.into(),
            amount: amount.into(),
            on: on.into(),
            note: note.into(),
            reverses: String::new(),
        }
    }

    /// Records `input` or panics with its problems.
    fn record(l: &mut Ledger, input: &EntryInput) -> Entry {
        let e = l
            .check(input, &WHEN)
            .unwrap_or_else(|p| panic!("{input:?}: {p:?}"));
        l.entries.push(e.clone());
        e
    }

    fn refusal(l: &Ledger, input: &EntryInput) -> Vec<Problem> {
        l.check(input, &WHEN).expect_err("refused")
    }

    #[test]
    fn money_is_read_as_typed_and_printed_in_dollars_and_cents() {
        for (typed, cents) in [
            ("10", 1000),
            ("10.5", 1050),
            ("$10.50", 1050),
            (" $ 10.05 ", 1005),
            ("0.99", 99),
            (".5", 50),
            ("1,250", 125_000),
            ("10000", 1_000_000),
            ("007", 700),
        ] {
            assert_eq!(Money::parse(typed), Ok(Money::from_cents(cents)), "{typed}");
        }
        assert_eq!(Money::from_cents(1000).to_string(), "$10.00");
        assert_eq!(Money::from_cents(125_005).to_string(), "$1,250.05");
        assert_eq!(Money::from_cents(-1000).to_string(), "\u{2212}$10.00");
        assert_eq!(Money::from_cents(-1005).decimal(), "-10.05");
        assert_eq!(Money::from_cents(125_000).decimal(), "1250.00");
    }

    #[test]
    fn money_that_is_not_an_amount_is_refused_with_the_reason() {
        for (typed, why) in [
            ("", "No amount was given"),
            ("abc", "“abc” is not an amount of money"),
            ("10.505", "more than two decimals"),
            ("-5", "below zero"),
            ("$-5", "below zero"),
            ("\u{2212}5", "below zero"),
            ("12,50", "not an amount"),
            ("1.2.3", "not an amount"),
            ("$", "not an amount"),
            ("10000.01", "more than one entry may be ($10,000.00)"),
            ("99999999999999999999", "more than one entry may be"),
        ] {
            let refused = Money::parse(typed).unwrap_err();
            assert!(refused.contains(why), "{typed:?}: {refused}");
        }
        // A long text is not repeated whole.
        let long = "x".repeat(500);
        assert!(Money::parse(&long).unwrap_err().len() < 200);
    }

    #[test]
    fn money_reads_from_a_ruleset_as_text_or_whole_dollars() {
        #[derive(serde::Deserialize, serde::Serialize)]
        struct F {
            fee: Money,
        }
        let f: F = toml::from_str("fee = \"10.00\"").unwrap();
        assert_eq!(f.fee, Money::from_cents(1000));
        let f: F = toml::from_str("fee = 12").unwrap();
        assert_eq!(f.fee, Money::from_cents(1200));
        let float = toml::from_str::<F>("fee = 10.5").err().unwrap().to_string();
        assert!(float.contains("as text"), "{float}");
        assert_eq!(
            toml::to_string(&F {
                fee: Money::from_cents(1050)
            })
            .unwrap(),
            "fee = \"10.50\"\n"
        );
    }

    #[test]
    fn gt_o2_each_school_owes_the_fee_once_not_once_a_team() {
        let l = ledger(Vec::new());
        let s = l.statement();
        let lines: Vec<(&str, i64)> = s
            .schools
            .iter()
            .map(|l| (l.school.as_str(), l.due.cents()))
            .collect();
        assert_eq!(
            lines,
            [
                ("Bowling Green", 1000),
                ("Perrysburg", 1000),
                ("St. John's Jesuit", 1000),
                ("Start", 1000)
            ]
        );
        assert_eq!(s.totals.due, Money::from_cents(4000));
        assert_eq!(s.totals.outstanding, Money::from_cents(4000));
        assert!(s.notes.is_empty());
    }

    #[test]
    fn gt_o2_different_fees_across_competitions_are_noted_and_the_highest_owed() {
        let cs = season();
        let twelve = Fees {
            entry_fee: Money::from_cents(1200),
        };
        let d = dues([(&cs[0], Some(TEN)), (&cs[1], Some(twelve))]);
        assert_eq!(d.schools["Perrysburg"], Money::from_cents(1200));
        assert_eq!(d.fee, None);
        assert_eq!(dues([(&cs[0], Some(TEN))]).fee, Some(TEN.entry_fee));
        assert_eq!(d.schools["Start"], Money::from_cents(1000));
        assert_eq!(d.notes.len(), 1);
        assert!(
            d.notes[0].contains("Metro $10.00, Wood County $12.00"),
            "{d:?}"
        );
        // An event with no fee: its schools owe nothing.
        let none = dues([(&cs[0], None)]);
        assert!(none.schools.values().all(|m| *m == Money::ZERO));
        assert!(none.notes.is_empty());
    }

    #[test]
    fn gt_o2_a_waiver_lowers_what_a_school_owes_without_moving_money() {
        let mut l = ledger(Vec::new());
        // Bowling Green is new to the league: half its fee waived, the rest paid.
        let half = record(
            &mut l,
            &input(
                "waiver",
                "Bowling Green",
                "5",
                "2026-09-20",
                "new to the league",
            ),
        );
        assert_eq!(half.kind, EntryKind::Waiver);
        record(
            &mut l,
            &input("payment", "Bowling Green", "5", "2026-10-01", "cheque 77"),
        );
        let s = l.statement();
        let bg = s
            .schools
            .iter()
            .find(|x| x.school == "Bowling Green")
            .unwrap();
        assert_eq!(
            (bg.waived, bg.paid, bg.owes()),
            (Money::from_cents(500), Money::from_cents(500), Money::ZERO)
        );
        assert_eq!(bg.standing(), "paid in full");
        assert_eq!(s.totals.waived, Money::from_cents(500));
        // No money moved: the cash is the payment alone.
        assert_eq!(s.totals.cash(), Money::from_cents(500));
        assert_eq!(s.totals.outstanding, Money::from_cents(3000));

        // More than the fee left is refused with the sums; a waiver needs its reason.
        let too_much = refusal(
            &l,
            &input("waiver", "Bowling Green", "6", "2026-10-02", "hardship"),
        );
        assert_eq!(too_much.len(), 1, "{too_much:?}");
        assert!(
            too_much[0]
                .message
                .contains("Bowling Green's entry fee is $10.00 and $5.00 of it is waived already; a waiver of $6.00 would waive more than the fee (GT-O2)"),
            "{too_much:?}"
        );
        let no_reason = refusal(&l, &input("waiver", "Start", "10", "2026-10-02", ""));
        assert_eq!(no_reason.len(), 1, "{no_reason:?}");
        assert_eq!(no_reason[0].field, "note");

        // A waiver made by mistake is reversed like any entry, and the fee is owed again.
        let mut undo = input("reversal", "", "", "2026-10-03", "waived by mistake");
        undo.reverses = half.number.to_string();
        record(&mut l, &undo);
        let bg = l
            .statement()
            .schools
            .into_iter()
            .find(|x| x.school == "Bowling Green")
            .unwrap();
        assert_eq!(
            (bg.waived, bg.owes()),
            (Money::ZERO, Money::from_cents(500))
        );
    }

    #[test]
    fn gt_o2_the_statement_follows_payments_refunds_and_prizes() {
        let mut l = ledger(Vec::new());
        record(
            &mut l,
            &input("payment", "Start", "10", "2026-10-07", "cheque 1042"),
        );
        // St. John's Jesuit paid for each of its two teams: $10 too much, paid back.
        record(
            &mut l,
            &input("payment", "St. John's Jesuit", "$20.00", "2026-10-09", ""),
        );
        record(
            &mut l,
            &input(
                "refund",
                "St. John's Jesuit",
                "10",
                "2026-10-20",
                "the fee is per school (GT-O2)",
            ),
        );
        let trophies = record(
            &mut l,
            &input(
                "prize purchase",
                "",
                "84.50",
                "2026-11-12",
                "three division trophies (GT-F1)",
            ),
        );
        assert_eq!(trophies.number, 4);
        assert_eq!(trophies.kind, EntryKind::PrizePurchase);
        let s = l.statement();
        let sjj = s
            .schools
            .iter()
            .find(|l| l.school == "St. John's Jesuit")
            .unwrap();
        assert_eq!(
            (sjj.paid.cents(), sjj.refunded.cents(), sjj.owes()),
            (2000, 1000, Money::ZERO)
        );
        assert_eq!(sjj.standing(), "paid in full");
        let bg = s
            .schools
            .iter()
            .find(|l| l.school == "Bowling Green")
            .unwrap();
        assert_eq!(bg.standing(), "owes $10.00");
        assert_eq!(s.prizes, vec![trophies]);
        let t = s.totals;
        assert_eq!(t.due.cents(), 4000);
        assert_eq!(t.received.cents(), 3000);
        assert_eq!(t.refunded.cents(), 1000);
        assert_eq!(t.prizes.cents(), 8450);
        assert_eq!(t.outstanding.cents(), 2000);
        assert_eq!(t.cash().cents(), 3000 - 1000 - 8450);
    }

    #[test]
    fn a_mistake_is_undone_by_a_reversal_that_names_it_and_both_stay() {
        let mut l = ledger(Vec::new());
        // Perrysburg's cheque recorded against Bowling Green by mistake.
        let wrong = record(
            &mut l,
            &input("payment", "Bowling Green", "10", "2026-10-08", ""),
        );
        let no_reason = refusal(
            &l,
            &EntryInput {
                kind: "reversal".into(),
                on: "2026-10-09".into(),
                reverses: "1".into(),
                ..EntryInput::default()
            },
        );
        assert_eq!(no_reason[0].field, "note");
        assert!(
            no_reason[0].message.contains("why entry 1"),
            "{no_reason:?}"
        );
        let undo = record(
            &mut l,
            &EntryInput {
                kind: "reversal".into(),
                on: "2026-10-09".into(),
                reverses: "#1".into(),
                note: "Perrysburg's cheque, not Bowling Green's".into(),
                // What a reversal is given of school and amount is not read: it takes the entry's.
                school: "Start".into(),
                amount: "999".into(),
            },
        );
        assert_eq!(
            (undo.school.as_deref(), undo.amount, undo.reverses),
            (Some("Bowling Green"), wrong.amount, Some(1))
        );
        record(
            &mut l,
            &input("payment", "Perrysburg", "10", "2026-10-08", "cheque 77"),
        );
        assert_eq!(l.entries().len(), 3);
        assert!(!l.in_force(&wrong) && !l.in_force(&undo));
        assert_eq!(l.reversal_of(1).map(|e| e.number), Some(2));
        let s = l.statement();
        let paid = |school: &str| {
            s.schools
                .iter()
                .find(|l| l.school == school)
                .unwrap()
                .paid
                .cents()
        };
        assert_eq!((paid("Bowling Green"), paid("Perrysburg")), (0, 1000));
        // Once only, and never a reversal of a reversal.
        let reverse = |n: &str| EntryInput {
            kind: "reversal".into(),
            on: "2026-10-10".into(),
            reverses: n.into(),
            note: "again".into(),
            ..EntryInput::default()
        };
        for (n, why) in [
            ("1", "reversed already, by entry 2"),
            ("2", "itself a reversal"),
            ("9", "no entry 9; it has 3"),
            ("x", "not an entry's number"),
            ("", "Name the entry"),
        ] {
            let p = refusal(&l, &reverse(n));
            assert!(
                p.iter()
                    .any(|p| p.field == "reverses" && p.message.contains(why)),
                "{n}: {p:?}"
            );
        }
    }

    /// GT-O2: the same payment typed twice is found, unless the first was reversed.
    #[test]
    fn gt_o2_an_entry_made_twice_is_found_until_the_first_is_reversed() {
        let mut l = ledger(Vec::new());
        let first = record(
            &mut l,
            &input("payment", "Start", "10", "2026-10-07", "cheque 12"),
        );
        let again = |l: &Ledger, amount: &str, note: &str| {
            let e = l
                .check(
                    &input("payment", "Start", amount, "2026-10-08", note),
                    &WHEN,
                )
                .unwrap();
            l.repeated_by(&e).map(|e| e.number)
        };
        assert_eq!(again(&l, "10", " Cheque 12"), Some(first.number));
        assert_eq!(again(&l, "10", "cheque 13"), None);
        assert_eq!(again(&l, "12", "cheque 12"), None);
        record(
            &mut l,
            &EntryInput {
                kind: "reversal".into(),
                on: "2026-10-09".into(),
                reverses: "1".into(),
                note: "the wrong school's cheque".into(),
                ..EntryInput::default()
            },
        );
        assert_eq!(again(&l, "10", "cheque 12"), None);
    }

    #[test]
    fn gt_o2_a_refund_pays_a_school_back_at_most_what_it_paid() {
        let mut l = ledger(Vec::new());
        let over = refusal(&l, &input("refund", "Start", "10", "2026-10-20", ""));
        assert_eq!(over.len(), 1);
        assert_eq!(
            over[0].message,
            "Start has paid $0.00 and been refunded $0.00; a refund of $10.00 would pay it back more than it paid (GT-O2)."
        );
        record(&mut l, &input("payment", "Start", "10", "2026-10-07", ""));
        record(&mut l, &input("refund", "Start", "4", "2026-10-20", ""));
        // The payment cannot now be undone while its refund stands.
        let p = refusal(
            &l,
            &EntryInput {
                kind: "reversal".into(),
                on: "2026-10-21".into(),
                reverses: "1".into(),
                note: "recorded twice".into(),
                ..EntryInput::default()
            },
        );
        assert!(p[0].message.contains("reverse the refund first"), "{p:?}");
    }

    #[test]
    fn gt_o2_an_entry_is_refused_with_every_mistake_named() {
        let l = ledger(Vec::new());
        let p = refusal(&l, &input("payment", "Waite", "abc", "2026-13-01", ""));
        let fields: Vec<&str> = p.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["on", "school", "amount"], "{p:?}");
        assert!(p[1].message.contains("“Waite” has no team in this season, so it owes no fee here (GT-O2); choose one of the season's 4 schools."), "{p:?}");
        assert!(p[2].message.contains("“abc” is not an amount"), "{p:?}");
        for (i, why) in [
            (
                input("", "Start", "10", "2026-10-07", ""),
                "Choose what the entry records",
            ),
            (
                input("donation", "Start", "10", "2026-10-07", ""),
                "“donation” is not a kind",
            ),
            (
                input("payment", "", "10", "2026-10-07", ""),
                "Choose the school that pays",
            ),
            (
                input("payment", "Start", "0", "2026-10-07", ""),
                "$0.00 records nothing",
            ),
            (input("payment", "Start", "10", "", ""), "Give the day"),
            (
                input("payment", "Start", "10", "2026-12-01", ""),
                "still to come (today is 2026-11-30)",
            ),
            (
                input("payment", "Start", "10", "2025-09-01", ""),
                "more than a year before the season starts (2026–27 season: 2026-10-05)",
            ),
            (
                input("prize_purchase", "Start", "10", "2026-11-01", "cups"),
                "names no school",
            ),
            (
                input("prize_purchase", "", "10", "2026-11-01", ""),
                "Say what was bought",
            ),
            (
                input("payment", "Start", "10", "2026-10-07", &"n".repeat(1001)),
                "The note has 1,001 characters",
            ),
        ] {
            let p = refusal(&l, &i);
            assert!(
                p.iter().any(|p| p.message.contains(why)),
                "{i:?}: {why}: {p:?}"
            );
        }
        // Fees paid before the season starts, within a year, are fine.
        assert!(
            l.check(&input("payment", "Start", "10", "2026-09-01", ""), &WHEN)
                .is_ok()
        );
    }
}
