//! Accounts: sign-in and sign-out, invitations, password resets, the account page and its API
//! tokens.

pub mod account;
