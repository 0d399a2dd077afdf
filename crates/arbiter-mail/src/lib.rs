//! Outgoing mail.
