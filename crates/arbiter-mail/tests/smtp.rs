#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Sending through SMTP to the crate's own sink (`--features sink`).

use std::time::Duration;

use arbiter_mail::sink::SmtpSink;
use arbiter_mail::{Delivery, Mail, MailError, Mailer, SmtpConfig};

/// Long enough for quoted-printable to wrap it (lines of at most 76 characters).
const INVITE_LINK: &str = "https://arbiter.example.org/invite/accept?token=3b9f0c2e6a7d4e18b5c1f09a2d7e6b4c8a1f3e5d7c9b0a2e4f6d8c0b1a3e5f7d9&league=metro-scholastic";

const PATIENCE: Duration = Duration::from_secs(10);

fn invite() -> Mail {
    Mail {
        to: "Pat Advisor <advisor@school.org>".into(),
        subject: "Your invitation to the Metro Scholastic League".into(),
        text: format!(
            "Hello,\n\nYou are invited to enter results for your school.\nFollow this link:\n{INVITE_LINK}\n\nArbiter\n"
        ),
    }
}

#[tokio::test]
async fn an_invite_arrives_with_its_recipient_subject_and_whole_link() {
    let sink = SmtpSink::start().await;
    let mailer = Mailer::smtp(sink.config());
    let delivery = mailer.send(&invite()).await.unwrap();
    assert_eq!(
        delivery,
        Delivery::Smtp {
            server: format!("127.0.0.1:{}", sink.port())
        }
    );

    let received = sink.wait_for(1, PATIENCE).await;
    assert_eq!(received.len(), 1);
    let mail = &received[0];
    assert_eq!(mail.from, "arbiter@localhost");
    assert_eq!(mail.to, ["advisor@school.org"]);
    assert_eq!(mail.user, None);
    assert_eq!(
        mail.header("To").unwrap(),
        "\"Pat Advisor\" <advisor@school.org>"
    );
    assert_eq!(mail.header("From").unwrap(), "Arbiter <arbiter@localhost>");
    assert_eq!(
        mail.header("Subject").unwrap(),
        "Your invitation to the Metro Scholastic League"
    );
    assert!(mail.header("Message-ID").unwrap().ends_with("@localhost>"));
    // The link really was wrapped on the wire, and comes back whole.
    assert_eq!(
        mail.header("Content-Transfer-Encoding").unwrap(),
        "quoted-printable"
    );
    assert!(!mail.data.contains(INVITE_LINK));
    assert!(mail.data.contains("=\r\n"));
    let text = mail.text();
    assert!(text.contains(&format!("\n{INVITE_LINK}\n")), "{text}");
    assert!(text.starts_with("Hello,\n\nYou are invited"), "{text}");
}

#[tokio::test]
async fn a_message_in_another_script_comes_back_decoded() {
    let sink = SmtpSink::start().await;
    let mail = Mail {
        to: "σκάκι@school.gr".into(),
        subject: "Πρόσκληση: Σκακιστικό πρωτάθλημα σχολείων".into(),
        text: "Καλησπέρα σας, είστε προσκεκλημένοι στο πρωτάθλημα.\nΕυχαριστούμε.\n".into(),
    };
    // lettre refuses a non-ASCII local part unless the server says SMTPUTF8; ours does.
    Mailer::smtp(sink.config()).send(&mail).await.unwrap();
    let received = sink.wait_for(1, PATIENCE).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].to, ["σκάκι@school.gr"]);
    assert_eq!(received[0].header("Subject").unwrap(), mail.subject);
    assert!(!received[0].data.contains("Καλησπέρα"));
    assert_eq!(received[0].text(), mail.text.replace("\r\n", "\n"));
}

#[tokio::test]
async fn lines_starting_with_a_dot_survive_the_data_terminator() {
    let sink = SmtpSink::start().await;
    let mail = Mail {
        to: "advisor@school.org".into(),
        subject: "Dots".into(),
        text: "first\n.\n..two\n.three\nlast\n".into(),
    };
    Mailer::smtp(sink.config()).send(&mail).await.unwrap();
    let received = sink.wait_for(1, PATIENCE).await;
    assert_eq!(received.len(), 1);
    // lettre ends DATA with CRLF . CRLF even after a final line break, which adds an empty line.
    assert_eq!(
        received[0].text().trim_end_matches('\n'),
        "first\n.\n..two\n.three\nlast"
    );
}

#[tokio::test]
async fn credentials_are_sent_when_configured_and_messages_arrive_in_order() {
    let sink = SmtpSink::start().await;
    let config = SmtpConfig {
        username: Some("league@mail.org".into()),
        password: Some("not a secret".into()),
        from: "Metro League <results@metro.org>".into(),
        ..sink.config()
    };
    let mailer = Mailer::smtp(config);
    for to in ["first@school.org", "second@school.org"] {
        let mail = Mail {
            to: to.into(),
            ..invite()
        };
        mailer.send(&mail).await.unwrap();
    }
    let received = sink.wait_for(2, PATIENCE).await;
    assert_eq!(received.len(), 2);
    assert_eq!(received[0].to, ["first@school.org"]);
    assert_eq!(received[1].to, ["second@school.org"]);
    for mail in &received {
        assert_eq!(mail.user.as_deref(), Some("league@mail.org"));
        assert_eq!(mail.from, "results@metro.org");
    }
}

#[tokio::test]
async fn a_bad_address_or_a_subject_with_a_line_break_is_refused_before_anything_is_sent() {
    let sink = SmtpSink::start().await;
    let mailer = Mailer::smtp(sink.config());

    let error = mailer
        .send(&Mail {
            to: "advisor at school.org".into(),
            ..invite()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            MailError::Address {
                role: "recipient",
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "The recipient address “advisor at school.org” is not an email address that can be sent to (it has no @); write it as name@example.org or Name <name@example.org>."
    );

    let injected = Mail {
        subject: "Invitation\r\nBcc: everyone@example.org".into(),
        ..invite()
    };
    let error = mailer.send(&injected).await.unwrap_err();
    assert!(matches!(error, MailError::Subject { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.starts_with(
            "The subject “Invitation\\r\\nBcc: everyone@example.org” has a line break"
        ),
        "{text}"
    );

    let error = mailer
        .send(&Mail {
            to: "a@school.org\nBcc: b@school.org".into(),
            ..invite()
        })
        .await
        .unwrap_err();
    assert!(matches!(error, MailError::Address { .. }), "{error:?}");

    // Only the good message after them reaches the server.
    mailer.send(&invite()).await.unwrap();
    let received = sink.wait_for(1, PATIENCE).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].header("Subject").unwrap(), invite().subject);
    assert!(!received[0].data.contains("everyone@example.org"));
}

#[tokio::test]
async fn an_unreachable_server_is_a_sentence_naming_it() {
    // A port that was just free: nothing listens there now.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mailer = Mailer::smtp(SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        from: arbiter_mail::DEFAULT_FROM.into(),
        username: None,
        password: None,
    });
    let error = mailer.send(&invite()).await.unwrap_err();
    assert!(
        matches!(&error, MailError::Connect { server, .. } if *server == format!("127.0.0.1:{port}")),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(
        text.starts_with(&format!(
            "Cannot connect to the SMTP server at 127.0.0.1:{port} ("
        )),
        "{text}"
    );
    assert!(
        text.ends_with("or unset ARBITER_SMTP_URL to write mail to a folder instead."),
        "{text}"
    );
}

#[tokio::test]
async fn a_recipient_the_server_refuses_is_a_sentence_with_its_answer() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    // A server that knows no one: every RCPT TO gets 550.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 strict ready\r\n").await.unwrap();
        while let Ok(Some(line)) = lines.next_line().await {
            let reply: &[u8] = match &line.to_ascii_uppercase()[..4] {
                "RCPT" => b"550 5.1.1 No such user here\r\n",
                "QUIT" => b"221 Bye\r\n",
                _ => b"250 OK\r\n",
            };
            write.write_all(reply).await.unwrap();
        }
    });
    let mailer = Mailer::smtp(SmtpConfig {
        port,
        ..SmtpConfig::from_url("smtp://127.0.0.1", arbiter_mail::DEFAULT_FROM).unwrap()
    });
    let error = mailer.send(&invite()).await.unwrap_err();
    assert!(matches!(error, MailError::Refused { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.starts_with(&format!(
            "The SMTP server at 127.0.0.1:{port} refused the message ("
        )),
        "{text}"
    );
    assert!(text.contains("No such user here"), "{text}");
}
