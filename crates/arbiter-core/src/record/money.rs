//! An amount of money in whole cents, never in floating point: a fee, a payment, a balance.

use std::fmt;

use crate::record::words::shortened;

/// An amount of money in cents: `Money::from_cents(1050)` is $10.50. A balance may be below
/// zero (a school in credit); an entry's amount is above zero, at most [`Money::MAX_ENTRY`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(i64);

impl Money {
    /// Nothing.
    pub const ZERO: Money = Money(0);
    /// The most one entry (or a ruleset's fee) may be, $10,000.00: a school league's fees,
    /// refunds and trophies are tens of dollars; an amount beyond this is a typing mistake.
    pub const MAX_ENTRY: Money = Money(1_000_000);

    /// The amount of `cents` cents.
    pub const fn from_cents(cents: i64) -> Money {
        Money(cents)
    }

    /// The amount in cents.
    pub const fn cents(self) -> i64 {
        self.0
    }

    /// Whether the amount is below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// The amount without its sign.
    pub const fn abs(self) -> Money {
        Money(self.0.abs())
    }

    /// An amount as a person types it: `10`, `10.5`, `$10.50`, `1,250.00`. Refused with the
    /// sentence why: blank, not a number, below zero, more than two decimals (money is counted
    /// in cents), or more than [`Money::MAX_ENTRY`].
    pub fn parse(text: &str) -> Result<Money, String> {
        let shown = text.trim();
        let example = "write it in dollars and cents, such as 10 or 10.50";
        if shown.is_empty() {
            return Err(format!("No amount was given; {example}."));
        }
        let shown_short = shortened(shown);
        let not_an_amount = || format!("“{shown_short}” is not an amount of money; {example}.");
        let minus = |s: &str| s.starts_with(['-', '\u{2212}']);
        let mut s = shown;
        let mut negative = false;
        if let Some(c) = s.chars().next().filter(|_| minus(s)) {
            negative = true;
            s = s[c.len_utf8()..].trim_start();
        }
        s = s.strip_prefix('$').unwrap_or(s).trim_start();
        if minus(s) {
            negative = true;
        }
        if negative {
            return Err(format!(
                "“{shown_short}” is below zero; an amount is written without a sign, since a refund or a reversal is its own kind of entry."
            ));
        }
        let (whole, fraction) = match s.split_once('.') {
            Some((w, f)) => (w, f),
            None => (s, ""),
        };
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        let whole_digits: String = if whole.contains(',') {
            // Thousands separators, where they belong: 1,250 and 12,500, not 12,50.
            let groups: Vec<&str> = whole.split(',').collect();
            let well_grouped = groups.first().is_some_and(|g| (1..=3).contains(&g.len()))
                && groups[1..].iter().all(|g| g.len() == 3)
                && groups.iter().all(|g| digits(g));
            if !well_grouped {
                return Err(not_an_amount());
            }
            groups.concat()
        } else {
            whole.to_string()
        };
        if (whole_digits.is_empty() && fraction.is_empty())
            || !digits(&whole_digits)
            || !digits(fraction)
        {
            return Err(not_an_amount());
        }
        if fraction.len() > 2 {
            return Err(format!(
                "“{shown_short}” has more than two decimals; money is counted in cents, such as 10.50."
            ));
        }
        let too_much = || {
            format!(
                "“{shown_short}” is more than one entry may be ({}); check the amount.",
                Money::MAX_ENTRY
            )
        };
        let dollars: i64 = match whole_digits.trim_start_matches('0') {
            "" => 0,
            d if d.len() > 9 => return Err(too_much()),
            d => d.parse().map_err(|_| not_an_amount())?,
        };
        let cents: i64 = match fraction.len() {
            0 => 0,
            1 => fraction.parse::<i64>().map_err(|_| not_an_amount())? * 10,
            _ => fraction.parse().map_err(|_| not_an_amount())?,
        };
        let money = Money(dollars * 100 + cents);
        if money > Money::MAX_ENTRY {
            return Err(too_much());
        }
        Ok(money)
    }

    /// The amount as a file or a script reads it: `10.00`, `-10.00`, `1250.00` (no `$`, no
    /// thousands separators, so that a spreadsheet sums it).
    pub fn decimal(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", a / 100, a % 100)
    }
}

impl fmt::Display for Money {
    /// `$10.00`, `$1,250.00`, `−$10.00`: the amount as a page says it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.unsigned_abs();
        let dollars = (a / 100).to_string();
        let mut grouped = String::with_capacity(dollars.len() + dollars.len() / 3);
        for (i, d) in dollars.chars().enumerate() {
            if i > 0 && (dollars.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(d);
        }
        let sign = if self.0 < 0 { "\u{2212}" } else { "" };
        write!(f, "{sign}${grouped}.{:02}", a % 100)
    }
}

impl std::ops::Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        Money(self.0.saturating_add(other.0))
    }
}

impl std::ops::Sub for Money {
    type Output = Money;
    fn sub(self, other: Money) -> Money {
        Money(self.0.saturating_sub(other.0))
    }
}

impl std::ops::AddAssign for Money {
    fn add_assign(&mut self, other: Money) {
        *self = *self + other;
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, |a, b| a + b)
    }
}

impl serde::Serialize for Money {
    /// As text, `"10.00"`: exact, as a ruleset file writes it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.decimal())
    }
}

impl<'de> serde::Deserialize<'de> for Money {
    /// `"10.00"` (or `"$10.50"`, `"10"`), or a whole number of dollars; never a float, which
    /// cannot hold cents exactly.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Money;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an amount of money as text, such as \"10.00\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Money, E> {
                Money::parse(v).map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Money, E> {
                Money::parse(&v.to_string()).map_err(E::custom)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Money, E> {
                Money::parse(&v.to_string()).map_err(E::custom)
            }
        }
        d.deserialize_any(Visitor)
    }
}
