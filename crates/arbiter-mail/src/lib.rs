//! Outgoing mail for Arbiter: invitations and password-reset links.
//!
//! A [`Mailer`] either hands each message to an SMTP server or, when none is configured,
//! writes it as one `.eml` file into a folder, so an invitation can be followed on a laptop
//! with no mail server (open the file, click the link).
//!
//! SMTP here is plaintext: lettre is built without a TLS backend to keep the build small.
//! Point `ARBITER_SMTP_URL` at a relay you trust on the same machine or network, such as a
//! local MTA (Postfix, OpenSMTPD, msmtpd) that does TLS onward. Talking to a remote submission
//! server directly would need STARTTLS or SMTPS, that is one of lettre's TLS features
//! (`tokio1-rustls` or `tokio1-native-tls`) and a `tls` setting here.
//!
//! With the `sink` feature, `sink::SmtpSink` is a small SMTP server on 127.0.0.1 that
//! tests send to and read back from.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

mod folder;
mod url;

#[cfg(feature = "sink")]
pub mod sink;

/// The sender when `ARBITER_MAIL_FROM` is not set, and on every message written to a folder.
pub const DEFAULT_FROM: &str = "Arbiter <arbiter@localhost>";

/// The folder when neither `ARBITER_SMTP_URL` nor `ARBITER_MAIL_DIR` is set.
pub const DEFAULT_DIR: &str = "mail";

/// How long to wait for the SMTP server to answer one step before giving up.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// One message to one person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    /// `advisor@school.org` or `Pat Advisor <advisor@school.org>`.
    pub to: String,
    /// One line.
    pub subject: String,
    /// The plain text body.
    pub text: String,
}

/// Where an SMTP server is and who the mail is from.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpConfig {
    /// The server's name or IP address (an IPv6 address without its brackets).
    pub host: String,
    /// The server's port, 25 when the URL leaves it out.
    pub port: u16,
    /// `Arbiter <arbiter@league.org>`.
    pub from: String,
    /// The user to log in as, or None to send without logging in.
    pub username: Option<String>,
    /// The password for `username`, decoded from the URL; never shown in `Debug`.
    pub password: Option<String>,
}

// By hand, so that a password never reaches a log.
impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("from", &self.from)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "…"))
            .finish()
    }
}

impl SmtpConfig {
    /// Reads `smtp://[user:pass@]host[:port]` (port 25 when left out; user and password
    /// percent-encoded as in any URL).
    pub fn from_url(smtp_url: &str, from: &str) -> Result<SmtpConfig, MailError> {
        let parsed = url::parse(smtp_url).map_err(|reason| MailError::SmtpUrl {
            url: url::redact(smtp_url),
            reason,
        })?;
        parse_mailbox(from, "sender")?;
        Ok(SmtpConfig {
            host: parsed.host,
            port: parsed.port,
            from: from.trim().to_owned(),
            username: parsed.username,
            password: parsed.password,
        })
    }

    /// `host:port`, with an IPv6 address in brackets.
    pub fn server(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// Sends mail through SMTP or writes it to a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mailer {
    /// Messages are handed to this SMTP server.
    Smtp(SmtpConfig),
    /// Messages are written here, from [`DEFAULT_FROM`].
    Folder(PathBuf),
}

/// Where a message went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Accepted by the SMTP server at `host:port`.
    Smtp {
        /// `host:port`, as [`SmtpConfig::server`] writes it.
        server: String,
    },
    /// Written to this file.
    File(PathBuf),
}

impl std::fmt::Display for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Delivery::Smtp { server } => write!(f, "handed to the SMTP server at {server}"),
            Delivery::File(path) => write!(f, "written to {}", path.display()),
        }
    }
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The recipient's or the sender's address cannot be sent to.
    #[error(
        "The {role} address “{address}” is not an email address that can be sent to ({reason}); write it as name@example.org or Name <name@example.org>."
    )]
    Address {
        /// "recipient" or "sender".
        role: &'static str,
        /// The address as it was given.
        address: String,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// The subject has a line break or another control character in it.
    #[error(
        "The subject “{subject}” has a line break or other control character in it; a subject is one line (a line break could add headers to the message), so remove it."
    )]
    Subject {
        /// The subject, with its control characters escaped.
        subject: String,
    },
    /// `ARBITER_SMTP_URL` cannot be read as `smtp://[user:pass@]host[:port]`.
    #[error(
        "ARBITER_SMTP_URL “{url}” cannot be used: {reason}. Write it as smtp://host:port or smtp://user:password@host:port, or unset it to write mail to a folder."
    )]
    SmtpUrl {
        /// The URL with its password hidden.
        url: String,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// The SMTP server could not be reached, or did not answer as SMTP.
    #[error(
        "Cannot connect to the SMTP server at {server} ({reason}); check that a mail server is running there and that ARBITER_SMTP_URL names it, or unset ARBITER_SMTP_URL to write mail to a folder instead."
    )]
    Connect {
        /// `host:port`.
        server: String,
        /// The error and its causes, on one line.
        reason: String,
    },
    /// The SMTP server answered but would not take the message (a 4xx or 5xx reply).
    #[error(
        "The SMTP server at {server} refused the message ({reason}); check the recipient address, the sender (ARBITER_MAIL_FROM) and the user and password in ARBITER_SMTP_URL."
    )]
    Refused {
        /// `host:port`.
        server: String,
        /// The server's reply and its causes, on one line.
        reason: String,
    },
    /// The message could not be written to the mail folder.
    #[error(
        "Cannot write mail to the folder {path} ({reason}); check that it can be created and written to, or set ARBITER_MAIL_DIR to another folder."
    )]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The file system's error.
        reason: String,
    },
    /// lettre would not put the message together: a bug, since the addresses were checked.
    #[error(
        "Cannot put the message together ({reason}); this is a bug in Arbiter, please report it."
    )]
    Build {
        /// lettre's error.
        reason: String,
    },
}

impl Mailer {
    /// From the environment: `ARBITER_SMTP_URL` (`smtp://[user:pass@]host[:port]`, port 25 when
    /// left out) and `ARBITER_MAIL_FROM` (default [`DEFAULT_FROM`]); without `ARBITER_SMTP_URL`,
    /// the folder `ARBITER_MAIL_DIR` (default [`DEFAULT_DIR`]). An empty variable counts as unset.
    pub fn from_env() -> Result<Mailer, MailError> {
        Mailer::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Mailer::from_env`] with the variables looked up by `var`.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Mailer, MailError> {
        let var = |name: &str| var(name).filter(|value| !value.trim().is_empty());
        match var("ARBITER_SMTP_URL") {
            Some(smtp_url) => {
                let from = var("ARBITER_MAIL_FROM").unwrap_or_else(|| DEFAULT_FROM.to_owned());
                SmtpConfig::from_url(&smtp_url, &from).map(Mailer::Smtp)
            }
            None => Ok(Mailer::folder(
                var("ARBITER_MAIL_DIR").unwrap_or_else(|| DEFAULT_DIR.to_owned()),
            )),
        }
    }

    /// Writes each message as one `.eml` file into the folder at `path`.
    pub fn folder(path: impl Into<PathBuf>) -> Mailer {
        Mailer::Folder(path.into())
    }

    /// Hands each message to the SMTP server `config` names.
    pub fn smtp(config: SmtpConfig) -> Mailer {
        Mailer::Smtp(config)
    }

    /// Sends one message and says where it went. Addresses and the subject are checked first,
    /// so nothing is sent or written when they are refused.
    pub async fn send(&self, mail: &Mail) -> Result<Delivery, MailError> {
        match self {
            Mailer::Smtp(config) => {
                let message = build_message(&config.from, mail)?;
                send_smtp(config, message).await
            }
            Mailer::Folder(dir) => {
                let message = build_message(DEFAULT_FROM, mail)?;
                folder::write(dir, &mail.to, &message.formatted())
                    .await
                    .map(Delivery::File)
            }
        }
    }

    /// One line for logs and the CLI.
    pub fn describe(&self) -> String {
        match self {
            Mailer::Smtp(config) => format!("mail goes to smtp://{}", config.server()),
            Mailer::Folder(dir) => format!(
                "mail is written to the folder {} (no SMTP server is configured; set ARBITER_SMTP_URL)",
                folder_name(dir)
            ),
        }
    }
}

/// `mail/`: a trailing slash says it is a folder.
fn folder_name(dir: &Path) -> String {
    let name = dir.display().to_string();
    if name.ends_with(std::path::MAIN_SEPARATOR) || name.ends_with('/') {
        name
    } else {
        format!("{name}/")
    }
}

fn parse_mailbox(address: &str, role: &'static str) -> Result<Mailbox, MailError> {
    let refuse = |reason: &str| MailError::Address {
        role,
        address: address.to_owned(),
        reason: reason.to_owned(),
    };
    let trimmed = address.trim();
    if trimmed.is_empty() {
        return Err(refuse("it is empty"));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(refuse(
            "it has a line break or other control character in it",
        ));
    }
    if !trimmed.contains('@') {
        return Err(refuse("it has no @"));
    }
    trimmed.parse::<Mailbox>().map_err(|error| {
        refuse(match error {
            lettre::address::AddressError::InvalidUser => "the part before the @ is not valid",
            lettre::address::AddressError::InvalidDomain => "the part after the @ is not a domain",
            _ => "it is not one address: look for spaces, commas, quotes or a missing < or >",
        })
    })
}

fn build_message(from: &str, mail: &Mail) -> Result<Message, MailError> {
    let to = parse_mailbox(&mail.to, "recipient")?;
    let from = parse_mailbox(from, "sender")?;
    if mail.subject.chars().any(char::is_control) {
        return Err(MailError::Subject {
            subject: mail.subject.escape_debug().to_string(),
        });
    }
    let message_id = format!("<{}@{}>", folder::unique_stamp(), from.email.domain());
    Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.trim())
        .message_id(Some(message_id))
        .header(ContentType::TEXT_PLAIN)
        .body(mail.text.clone())
        .map_err(|error| MailError::Build {
            reason: error.to_string(),
        })
}

async fn send_smtp(config: &SmtpConfig, message: Message) -> Result<Delivery, MailError> {
    let server = config.server();
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(config.host.as_str())
        .port(config.port)
        .timeout(Some(SMTP_TIMEOUT));
    if let Some(username) = &config.username {
        builder = builder.credentials(lettre::transport::smtp::authentication::Credentials::new(
            username.clone(),
            config.password.clone().unwrap_or_default(),
        ));
    }
    let transport = builder.build();
    match transport.send(message).await {
        Ok(_) => Ok(Delivery::Smtp { server }),
        Err(error) => Err(smtp_error(server, &error)),
    }
}

fn smtp_error(server: String, error: &lettre::transport::smtp::Error) -> MailError {
    let reason = error_chain(error);
    if error.is_permanent() || error.is_transient() {
        MailError::Refused { server, reason }
    } else {
        // Connection, network, timeout, or an answer that is not SMTP.
        MailError::Connect { server, reason }
    }
}

/// The error and its sources on one line, without repeating a source that is already in it.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let inner_text = inner.to_string();
        if !text.contains(&inner_text) {
            text.push_str(": ");
            text.push_str(&inner_text);
        }
        source = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn without_smtp_url_mail_goes_to_the_folder() {
        assert_eq!(
            Mailer::from_vars(vars(&[])).unwrap(),
            Mailer::folder("mail")
        );
        let mailer = Mailer::from_vars(vars(&[
            ("ARBITER_SMTP_URL", " "),
            ("ARBITER_MAIL_DIR", "/tmp/out"),
        ]))
        .unwrap();
        assert_eq!(mailer, Mailer::folder("/tmp/out"));
        assert_eq!(
            Mailer::folder("mail").describe(),
            "mail is written to the folder mail/ (no SMTP server is configured; set ARBITER_SMTP_URL)"
        );
    }

    #[test]
    fn smtp_url_with_credentials_and_sender() {
        let mailer = Mailer::from_vars(vars(&[
            (
                "ARBITER_SMTP_URL",
                "smtp://league%40mail.org:p%3Ass@relay.local:2525",
            ),
            ("ARBITER_MAIL_FROM", "League <league@mail.org>"),
        ]))
        .unwrap();
        let Mailer::Smtp(config) = &mailer else {
            panic!("expected SMTP, got {mailer:?}");
        };
        assert_eq!(config.host, "relay.local");
        assert_eq!(config.port, 2525);
        assert_eq!(config.username.as_deref(), Some("league@mail.org"));
        assert_eq!(config.password.as_deref(), Some("p:ss"));
        assert_eq!(config.from, "League <league@mail.org>");
        assert_eq!(mailer.describe(), "mail goes to smtp://relay.local:2525");
        assert!(!format!("{config:?}").contains("p:ss"));
    }

    #[test]
    fn smtp_url_defaults_to_port_25_and_the_default_sender() {
        let mailer = Mailer::from_vars(vars(&[("ARBITER_SMTP_URL", "smtp://localhost")])).unwrap();
        assert_eq!(
            mailer,
            Mailer::smtp(SmtpConfig {
                host: "localhost".into(),
                port: 25,
                from: DEFAULT_FROM.into(),
                username: None,
                password: None,
            })
        );
        assert_eq!(mailer.describe(), "mail goes to smtp://localhost:25");
        let ipv6 = SmtpConfig::from_url("smtp://[::1]:2525/", DEFAULT_FROM).unwrap();
        assert_eq!(
            (ipv6.host.as_str(), ipv6.server()),
            ("::1", "[::1]:2525".to_owned())
        );
    }

    #[test]
    fn unusable_smtp_urls_are_refused_without_showing_the_password() {
        for (url, says) in [
            ("smtps://relay.local", "TLS"),
            ("smtp://relay.local:2525?tls=required", "TLS"),
            ("http://relay.local", "smtp://"),
            ("smtp://relay.local:0", "port"),
            ("smtp://relay.local:smtp", "port"),
            ("smtp://:25", "host"),
            ("smtp://user:secret@", "host"),
            ("smtp://user@relay.local", "password"),
        ] {
            let error = Mailer::from_vars(vars(&[("ARBITER_SMTP_URL", url)])).unwrap_err();
            let text = error.to_string();
            assert!(matches!(error, MailError::SmtpUrl { .. }), "{url}: {text}");
            assert!(text.contains(says), "{url}: {text}");
            assert!(!text.contains("secret"), "{url}: {text}");
        }
    }

    #[test]
    fn a_bad_sender_is_refused() {
        let error = Mailer::from_vars(vars(&[
            ("ARBITER_SMTP_URL", "smtp://localhost"),
            ("ARBITER_MAIL_FROM", "the league"),
        ]))
        .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("The sender address “the league”"),
            "{error}"
        );
    }

    #[test]
    fn addresses_lettre_cannot_use_are_refused() {
        for address in [
            "",
            "advisor",
            "advisor@",
            "@school.org",
            "a@b.org, c@d.org",
            "a@b.org\r\nBcc: x@y.org",
        ] {
            assert!(
                parse_mailbox(address, "recipient").is_err(),
                "{address:?} was accepted"
            );
        }
        for address in [
            "advisor@school.org",
            " Pat Advisor <advisor@school.org> ",
            "arbiter@localhost",
        ] {
            assert!(
                parse_mailbox(address, "recipient").is_ok(),
                "{address:?} was refused"
            );
        }
    }
}
