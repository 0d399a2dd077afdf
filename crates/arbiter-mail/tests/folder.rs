#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Mail written to a folder when no SMTP server is configured.

use std::path::PathBuf;

use arbiter_mail::{Delivery, Mail, MailError, Mailer};

/// A fresh folder per test under the system's temporary folder (it is not created).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-mail-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn invite(to: &str) -> Mail {
    Mail {
        to: to.into(),
        subject: "Your invitation to the Metro Scholastic League".into(),
        text: "Follow this link to sign up: https://arbiter.example.org/invite/3b9f0c\n".into(),
    }
}

fn file_name(delivery: &Delivery) -> String {
    match delivery {
        Delivery::File(path) => path.file_name().unwrap().to_str().unwrap().to_owned(),
        other => panic!("expected a file, got {other:?}"),
    }
}

#[tokio::test]
async fn a_message_is_written_as_a_readable_eml_file_in_a_new_folder() {
    let dir = scratch("readable");
    let mailer = Mailer::folder(dir.join("mail"));
    let delivery = mailer
        .send(&invite("Pat Advisor <Advisor@School.org>"))
        .await
        .unwrap();
    let Delivery::File(path) = &delivery else {
        panic!("expected a file, got {delivery:?}");
    };
    assert_eq!(path.parent().unwrap(), dir.join("mail"));

    // 20261202T161501Z-0001-advisor_at_school.org.eml
    let name = file_name(&delivery);
    let (stamp, rest) = name.split_once('-').unwrap();
    assert_eq!(stamp.len(), 16, "{name}");
    assert!(
        stamp[..8].chars().all(|c| c.is_ascii_digit())
            && &stamp[8..9] == "T"
            && stamp.ends_with('Z'),
        "{name}"
    );
    let (sequence, recipient) = rest.split_once('-').unwrap();
    assert!(
        sequence.len() >= 4 && sequence.chars().all(|c| c.is_ascii_digit()),
        "{name}"
    );
    assert_eq!(recipient, "advisor_at_school.org.eml");

    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.contains("From: Arbiter <arbiter@localhost>\r\n"),
        "{text}"
    );
    assert!(
        text.contains("To: \"Pat Advisor\" <Advisor@School.org>\r\n"),
        "{text}"
    );
    assert!(
        text.contains("Subject: Your invitation to the Metro Scholastic League\r\n"),
        "{text}"
    );
    assert!(text.contains("Date: "), "{text}");
    assert!(
        text.ends_with(
            "\r\n\r\nFollow this link to sign up: https://arbiter.example.org/invite/3b9f0c\r\n"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn messages_in_the_same_second_get_their_own_files_in_sending_order() {
    let dir = scratch("order");
    let mailer = Mailer::folder(&dir);
    let mut names = Vec::new();
    for to in ["b@school.org", "a@school.org", "b@school.org"] {
        names.push(file_name(&mailer.send(&invite(to)).await.unwrap()));
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    on_disk.sort();
    assert_eq!(on_disk, names);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_refused_message_writes_nothing() {
    let dir = scratch("refused");
    let mailer = Mailer::folder(&dir);
    let error = mailer.send(&invite("advisor@")).await.unwrap_err();
    assert!(matches!(error, MailError::Address { .. }), "{error:?}");
    let error = mailer
        .send(&Mail {
            subject: "Invitation\nBcc: everyone@example.org".into(),
            ..invite("advisor@school.org")
        })
        .await
        .unwrap_err();
    assert!(matches!(error, MailError::Subject { .. }), "{error:?}");
    assert!(!dir.exists());
}

#[tokio::test]
async fn a_folder_that_cannot_be_made_is_a_sentence_naming_it() {
    let dir = scratch("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    // A file where the folder should be.
    std::fs::write(dir.join("mail"), "not a folder").unwrap();
    let error = Mailer::folder(dir.join("mail"))
        .send(&invite("advisor@school.org"))
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, MailError::Folder { .. }), "{error:?}");
    assert!(
        text.starts_with(&format!(
            "Cannot write mail to the folder {} (",
            dir.join("mail").display()
        )),
        "{text}"
    );
    assert!(
        text.ends_with("or set ARBITER_MAIL_DIR to another folder."),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
