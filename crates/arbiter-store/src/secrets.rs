//! Passwords and tokens. The store keeps only argon2id hashes of passwords and SHA-256 hashes of
//! invite, reset and API tokens, so a copy of the database lets no one sign in.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::StoreError;

/// The shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 10;
/// The longest password accepted, in characters.
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

/// A seed for a lot (AS-8) from the operating system's random bytes, never one a person types.
/// Panics as [`new_token`] does.
pub fn lot_seed() -> u64 {
    match random_bytes::<8>() {
        Ok(b) => u64::from_le_bytes(b),
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

/// Whether `plain` may be a new password. `context` is what a guesser would try first: the
/// account's email and name, its leagues and schools. In the manner of NIST SP 800-63B: long
/// enough, not longer than a hash needs, and refused when zxcvbn finds it among common
/// passwords, repeats, sequences and keyboard rows, or built from the context, with a
/// sentence that says which (issue 9, item 11).
pub fn check_new_password(plain: &str, context: &[&str]) -> Result<(), String> {
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
    let squeezed = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let password = squeezed(plain);
    // The context as a guesser would use it: whole, and the email's parts and the words.
    let mut words: Vec<String> = Vec::new();
    for item in context.iter().map(|c| c.trim()).filter(|c| !c.is_empty()) {
        words.push(item.to_lowercase());
        words.extend(
            item.split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.chars().count() >= 3)
                .map(str::to_lowercase),
        );
        if squeezed(item) == password {
            return Err(format!(
                "A password cannot be “{item}”, which anyone who knows the account could guess; choose something else."
            ));
        }
    }
    if made_of(&password, &words) {
        return Err(
            "This password is too easy to guess: it is built from the account's own email, name, school or league, which a guesser tries first. A few unrelated words, such as four picked at random, make a strong one that is easy to remember.".into(),
        );
    }
    let inputs: Vec<&str> = words.iter().map(String::as_str).collect();
    // Spaces and symbols between words add little for a guesser who tries the words: the
    // weaker of the password as typed and squeezed counts.
    let estimate = [plain, password.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| zxcvbn::zxcvbn(p, &inputs))
        .min_by_key(|e| e.guesses())
        .unwrap_or_else(|| zxcvbn::zxcvbn(plain, &inputs));
    if estimate.score() >= zxcvbn::Score::Three {
        return Ok(());
    }
    let why = estimate
        .feedback()
        .and_then(|f| f.warning())
        .map_or_else(
            || "It would be guessed too soon: it is made of words, names or patterns a guesser tries early.".to_string(),
            |w| format!("It would be guessed too soon: {}", w.to_string().to_lowercase()),
        );
    Err(format!(
        "This password is too easy to guess. {why} A few unrelated words, such as four picked at random, make a strong one that is easy to remember."
    ))
}

/// Whether `password` (squeezed) is the context's words with at most a few digits or letters
/// besides (`patadvisor2026` for Pat Advisor).
fn made_of(password: &str, words: &[String]) -> bool {
    let mut words: Vec<String> = words
        .iter()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .collect::<String>()
        })
        .filter(|w| w.chars().count() >= 3)
        .collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let mut rest = password.to_string();
    let mut removed = false;
    for word in &words {
        if rest.contains(word.as_str()) {
            rest = rest.replace(word.as_str(), "");
            removed = true;
        }
    }
    removed && (rest.chars().count() <= 3 || rest.chars().all(|c| c.is_ascii_digit()))
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
        let email = ["a@b.example"];
        assert_eq!(
            check_new_password("short12", &email).unwrap_err(),
            "A password needs at least 10 characters; this one has 7. \
             A few unrelated words make a long one that is easy to remember."
        );
        assert!(check_new_password(&"x".repeat(201), &email).is_err());
        let long: String = (0..200)
            .map(|i| char::from(b'a' + u8::try_from(i * 7919 % 26).unwrap()))
            .collect();
        assert_eq!(check_new_password(&long, &email), Ok(()));
        // Characters, not bytes: ten accented letters are ten.
        let accented = check_new_password("éèêëàâäîïô", &email);
        assert!(
            accented
                .as_ref()
                .map_or_else(|e| !e.contains("at least"), |()| true)
        );
    }

    #[test]
    fn common_repetitive_and_patterned_passwords_are_refused_saying_why() {
        let email = ["a@b.example"];
        let repeated = check_new_password("aaaaaaaaaa", &email).unwrap_err();
        assert!(repeated.contains("repeats like"), "{repeated}");
        let common = check_new_password("password123", &email).unwrap_err();
        assert!(common.contains("common password"), "{common}");
        let keyboard = check_new_password("qwertyuiop", &email).unwrap_err();
        assert!(keyboard.contains("too easy to guess"), "{keyboard}");
        let sequence = check_new_password("1234567890", &email).unwrap_err();
        assert!(sequence.contains("too easy to guess"), "{sequence}");
        for strong in [
            "correct horse battery staple",
            "plum lantern obvious kettle",
        ] {
            assert_eq!(check_new_password(strong, &email), Ok(()), "{strong}");
        }
    }

    #[test]
    fn a_password_made_of_the_accounts_own_context_is_refused() {
        let context = [
            "advisor@vic.example",
            "Pat Advisor",
            "Greater Toledo High School Chess League",
        ];
        let email = check_new_password("Advisor@Vic.example", &context).unwrap_err();
        assert!(email.contains("cannot be “advisor@vic.example”"), "{email}");
        let league = check_new_password("greater toledo chess", &context).unwrap_err();
        assert!(league.contains("built from the account's own"), "{league}");
        let name = check_new_password("patadvisor2026", &context).unwrap_err();
        assert!(name.contains("built from the account's own"), "{name}");
        // The same words are a fair password for someone they do not describe.
        assert_eq!(
            check_new_password("greater toledo chess", &["x@y.example"]),
            Ok(())
        );
    }
}
