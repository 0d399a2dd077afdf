//! The moment a write is stamped with (RULES.md, "Time"): the system's clock, or the site's
//! clock moved by `--now` or `--today`, so that a rehearsal's or a test's entries fall on the
//! days they are played and GT-P2's days count from them.

use std::time::Instant;

/// The site's clock: the system's, one set to a moment (a test), or one started at a moment and
/// running on from it (`--now`, `--today`: a rehearsal of an event's day, the demo on its days).
#[derive(Debug, Clone, Copy, Default)]
pub enum Clock {
    /// The system's clock.
    #[default]
    System,
    /// Always this moment.
    Fixed(jiff::Timestamp),
    /// `start`, and running on from the instant `at`.
    From {
        /// The moment the clock was set to.
        start: jiff::Timestamp,
        /// When it was set.
        at: Instant,
    },
}

impl Clock {
    /// A clock that starts at `start` now and runs on.
    pub fn starting_at(start: jiff::Timestamp) -> Clock {
        Clock::From {
            start,
            at: Instant::now(),
        }
    }

    /// Whether the clock was set (`--now`, `--today`, a test), not the system's.
    pub fn is_set(self) -> bool {
        !matches!(self, Clock::System)
    }

    /// Now, to the microsecond: both backends keep microseconds, so what a write returns is
    /// exactly what a later read gives back.
    pub fn now(self) -> jiff::Timestamp {
        let t = match self {
            Clock::System => jiff::Timestamp::now(),
            Clock::Fixed(t) => t,
            Clock::From { start, at } => jiff::SignedDuration::try_from(at.elapsed())
                .ok()
                .and_then(|d| start.checked_add(d).ok())
                .unwrap_or(start),
        };
        jiff::Timestamp::from_microsecond(t.as_microsecond()).unwrap_or(t)
    }
}
