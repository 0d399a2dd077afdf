//! Passwords and tokens. The store keeps only argon2id hashes of passwords and SHA-256 hashes of
//! invite, reset and API tokens, so a copy of the database lets no one sign in.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::StoreError;

/// Shortest and longest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 10;
pub const MAX_PASSWORD_CHARS: usize = 200;

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn random_bytes<const N: usize>() -> Result<[u8; N], StoreError> {
    let mut buf = [0u8; N];
    getrandom::getrandom(&mut buf).map_err(|e| {
        StoreError::Database(format!(
            "the operating system gave no random bytes ({e}); a token or salt cannot be made safely"
        ))
    })?;
    Ok(buf)
}

/// A new secret for a link or an API token: 32 random bytes as 64 hex characters.
///
/// Panics only if the operating system cannot give random bytes, which no user input causes;
/// see [`try_new_token`] to handle that as an error.
pub fn new_token() -> String {
    match try_new_token() {
        Ok(t) => t,
        // No safe fallback exists: a guessable token would let strangers in.
        Err(e) => panic!("{e}"),
    }
}

/// [`new_token`], with the (very unlikely) lack of randomness as an error.
pub fn try_new_token() -> Result<String, StoreError> {
    Ok(hex(&random_bytes::<32>()?))
}

/// The SHA-256 of a token, as 64 hex characters: what the store keeps and looks up by.
pub fn token_hash(plain: &str) -> String {
    hex(&Sha256::digest(plain.trim().as_bytes()))
}

/// An argon2id PHC string (`$argon2id$v=19$m=…`) with a fresh random salt and default parameters.
pub fn hash_password(plain: &str) -> Result<String, StoreError> {
    let salt = SaltString::encode_b64(&random_bytes::<16>()?)
        .map_err(|e| StoreError::Database(format!("a password salt could not be encoded ({e})")))?;
    Argon2::default()
        .hash_password(plain.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| StoreError::Invalid(format!("the password could not be hashed ({e})")))
}

/// Whether `plain` is the password `phc` was made from. A malformed hash verifies nothing.
pub fn verify_password(plain: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => Argon2::default()
            .verify_password(plain.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// An argon2id hash (default parameters) of a password no one knows, made once.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        // A fixed salt is fine here: the hash guards nothing, it only costs the same time.
        SaltString::encode_b64(b"arbiter-dummy-salt")
            .ok()
            .and_then(|salt| {
                Argon2::default()
                    .hash_password(b"no account has this password", &salt)
                    .ok()
                    .map(|h| h.to_string())
            })
            .unwrap_or_default()
    })
}

/// Verifies `plain` against a fixed hash and returns false, so that signing in with an unknown
/// email takes as long as with a known one (and does not tell which emails have accounts).
pub fn verify_dummy(plain: &str) -> bool {
    let phc = dummy_hash();
    let _ = verify_password(plain, phc);
    false
}

/// Whether `plain` may be a new password for the account `email`; the error is a sentence to show.
pub fn check_new_password(plain: &str, email: &str) -> Result<(), String> {
    let chars = plain.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(format!(
            "A password needs at least {MIN_PASSWORD_CHARS} characters; this one has {chars}. \
             A few unrelated words make a long one that is easy to remember."
        ));
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(format!(
            "A password may have at most {MAX_PASSWORD_CHARS} characters; this one has {chars}. Choose a shorter one."
        ));
    }
    let email = email.trim();
    if !email.is_empty() && plain.trim().to_lowercase() == email.to_lowercase() {
        return Err(
            "A password cannot be the account's own email address; choose something else.".into(),
        );
    }
    Ok(())
}

/// The CSRF token of a visitor who has not signed in: an HMAC-SHA-256, under the site's
/// secret, of the random value in the visitor's form cookie. Only this site can make it, and it
/// is good only with that cookie.
pub fn form_token(site_secret: &str, cookie: &str) -> String {
    // A key of any length is accepted, so this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(site_secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
    mac.update(b"arbiter form token\0");
    mac.update(cookie.as_bytes());
    hex(&mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_form_token_depends_on_both_the_site_secret_and_the_cookie() {
        let token = form_token("site one", "cookie a");
        assert_eq!(token.len(), 64);
        assert_eq!(token, form_token("site one", "cookie a"));
        assert_ne!(token, form_token("site two", "cookie a"));
        assert_ne!(token, form_token("site one", "cookie b"));
    }

    #[test]
    fn tokens_are_64_hex_characters_and_differ() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 64);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_ne!(a, b);
    }

    #[test]
    fn token_hash_is_sha256_hex() {
        // SHA-256 of "abc", from FIPS 180-2.
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(token_hash("abc"), token_hash("abd"));
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let phc = hash_password("correct horse battery").unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(verify_password("correct horse battery", &phc));
        assert!(!verify_password("correct horse batterY", &phc));
        assert!(!verify_password("correct horse battery", "not a hash"));
        // A fresh salt each time.
        assert_ne!(phc, hash_password("correct horse battery").unwrap());
    }

    #[test]
    fn the_dummy_never_verifies() {
        assert!(dummy_hash().starts_with("$argon2id$"));
        assert!(!verify_dummy("no account has this password"));
        assert!(!verify_dummy(""));
    }

    #[test]
    fn new_passwords_are_checked_with_a_sentence() {
        assert_eq!(
            check_new_password("short12", "a@b.example").unwrap_err(),
            "A password needs at least 10 characters; this one has 7. \
             A few unrelated words make a long one that is easy to remember."
        );
        assert!(check_new_password(&"x".repeat(201), "a@b.example").is_err());
        assert!(check_new_password(&"x".repeat(200), "a@b.example").is_ok());
        assert!(
            check_new_password("Advisor@Vic.example", "advisor@vic.example")
                .unwrap_err()
                .contains("email")
        );
        assert!(check_new_password("ten chars!", "a@b.example").is_ok());
        // Characters, not bytes: ten accented letters are ten.
        assert!(check_new_password("éééééééééé", "a@b.example").is_ok());
    }
}
