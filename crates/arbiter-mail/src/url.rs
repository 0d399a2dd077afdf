//! `smtp://[user:pass@]host[:port]`, read by hand: the whole grammar is this one line.

#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SmtpUrl {
    pub host: String,
    pub port: u16,
    pub username: Option<String>,
    pub password: Option<String>,
}

/// The reason is a clause that fits in [`crate::MailError::SmtpUrl`].
pub(crate) fn parse(url: &str) -> Result<SmtpUrl, String> {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err("it does not start with smtp://".into());
    };
    match scheme.to_ascii_lowercase().as_str() {
        "smtp" => {}
        "smtps" => {
            return Err(
                "smtps:// needs TLS, which this build of Arbiter does not have; \
                 relay through a local mail server (smtp://localhost:25) that does TLS onward"
                    .into(),
            );
        }
        _ => {
            return Err(format!(
                "the scheme is {scheme}:// but only smtp:// is understood"
            ));
        }
    }
    if rest.contains('?') || rest.contains('#') {
        return Err(
            "options after ? (such as tls=) are not understood; this build of Arbiter \
             has no TLS, so relay through a local mail server that does TLS onward"
                .into(),
        );
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (userinfo, hostport) = match rest.rsplit_once('@') {
        Some((userinfo, hostport)) => (Some(userinfo), hostport),
        None => (None, rest),
    };
    if hostport.contains('/') {
        return Err("it has a path after the host, which is not understood".into());
    }
    let (host, port) = split_host_port(hostport)?;
    let (username, password) = match userinfo {
        None => (None, None),
        Some(userinfo) => match userinfo.split_once(':') {
            Some((user, pass)) => (Some(percent_decode(user)?), Some(percent_decode(pass)?)),
            None => {
                return Err("it names a user but no password (write user:password@)".into());
            }
        },
    };
    if username.as_deref() == Some("") {
        return Err("the user name before the : is empty".into());
    }
    Ok(SmtpUrl {
        host,
        port,
        username,
        password,
    })
}

fn split_host_port(hostport: &str) -> Result<(String, u16), String> {
    let (host, port) = if let Some(bracketed) = hostport.strip_prefix('[') {
        let Some((host, after)) = bracketed.split_once(']') else {
            return Err("the IPv6 address has no closing ]".into());
        };
        match after {
            "" => (host, None),
            _ => match after.strip_prefix(':') {
                Some(port) => (host, Some(port)),
                None => return Err("something other than :port follows the IPv6 address".into()),
            },
        }
    } else {
        match hostport.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return Err("it has no host".into());
    }
    let port = match port {
        None => 25,
        Some(port) => match port.parse::<u16>() {
            Ok(port) if port > 0 => port,
            _ => return Err(format!("the port “{port}” is not a number from 1 to 65535")),
        },
    };
    Ok((host.to_owned(), port))
}

fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|pair| std::str::from_utf8(pair).ok())
                .and_then(|pair| u8::from_str_radix(pair, 16).ok());
            match hex {
                Some(byte) => out.push(byte),
                None => {
                    return Err(
                        "a % in the user or password is not followed by two hex digits".into(),
                    );
                }
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the user or password is not UTF-8 once %-decoded".into())
}

/// The URL with its password replaced, for error messages.
pub(crate) fn redact(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        // Not a URL at all: it may still hold a password, so show only its start.
        return match url.split_once(['@', ':']) {
            Some(_) => "(not shown: it may hold a password)".into(),
            None => url.to_owned(),
        };
    };
    match rest.rsplit_once('@') {
        Some((userinfo, hostport)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(user, _)| user);
            if userinfo.contains(':') {
                format!("{scheme}://{user}:…@{hostport}")
            } else {
                format!("{scheme}://{user}@{hostport}")
            }
        }
        None => url.to_owned(),
    }
}
