//! "Your turn" messages for games played at a pace: a JSON POST to the seat's webhook and/or
//! an e-mail through the server's SMTP relay. A message says which game, which side, the
//! game turn and the time left — what the seat's own view shows — and nothing of what was
//! played: the player reads that in the game, where the server shows only what the seat saw.

use crate::records::Contact;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Serialize;
use volley_core::Side;

/// Where e-mail goes out: an SMTP relay (plain SMTP, as a local mail server takes it) and
/// the sender's address.
#[derive(Clone, Debug)]
pub struct Smtp {
    pub host: String,
    pub port: u16,
    pub from: String,
}

impl Smtp {
    /// `HOST:PORT` (or `HOST`, port 25) and the address mail is sent from.
    pub fn parse(relay: &str, from: &str) -> Result<Smtp, String> {
        let relay = relay.trim();
        let (host, port) = match relay.rsplit_once(':') {
            Some((host, port)) => (
                host,
                port.parse::<u16>().map_err(|_| {
                    format!("--smtp {relay}: the port \"{port}\" is not a number from 1 to 65535")
                })?,
            ),
            None => (relay, 25),
        };
        if host.is_empty() {
            return Err(format!(
                "--smtp \"{relay}\": give the mail relay as HOST:PORT"
            ));
        }
        check_email(from).map_err(|e| format!("--mail-from: {e}"))?;
        Ok(Smtp {
            host: host.to_string(),
            port,
            from: from.trim().to_string(),
        })
    }
}

/// How the server reaches players.
#[derive(Clone, Debug, Default)]
pub struct NotifyConfig {
    pub smtp: Option<Smtp>,
    /// The address players open the server at (`https://volley.example.org/`), for the link
    /// in a message; none leaves the link out.
    pub public_url: Option<String>,
}

/// A webhook address is an http(s) URL of at most 500 characters.
pub fn check_webhook(url: &str) -> Result<(), String> {
    let url = url.trim();
    if url.len() > 500 {
        return Err("a webhook URL holds at most 500 characters".into());
    }
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("the webhook \"{url}\" is not an http:// or https:// URL"))?;
    if rest.is_empty() || rest.starts_with('/') || url.chars().any(char::is_whitespace) {
        return Err(format!("the webhook \"{url}\" names no host"));
    }
    Ok(())
}

/// An e-mail address: one `@` with something either side, at most 254 characters.
pub fn check_email(address: &str) -> Result<(), String> {
    let address = address.trim();
    if address.len() > 254 {
        return Err("an e-mail address holds at most 254 characters".into());
    }
    address
        .parse::<lettre::Address>()
        .map(|_| ())
        .map_err(|e| format!("\"{address}\" is not an e-mail address: {e}"))
}

/// Checks a contact as a seat gives it, trimmed, empty fields dropped.
pub fn checked(contact: Contact) -> Result<Contact, String> {
    let clean = |f: Option<String>| f.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let contact = Contact {
        webhook: clean(contact.webhook),
        email: clean(contact.email),
    };
    if let Some(w) = &contact.webhook {
        check_webhook(w)?;
    }
    if let Some(e) = &contact.email {
        check_email(e)?;
    }
    Ok(contact)
}

/// What a webhook is sent (and what the e-mail says, in words).
#[derive(Clone, Debug, Serialize)]
pub struct YourTurn {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub game: String,
    pub scenario: String,
    pub side: Side,
    pub turn: u32,
    /// When the time for the move runs out (Unix seconds); none in a live game.
    pub deadline: Option<i64>,
    /// The server's games list, where the player opens the game with their own seat.
    pub link: Option<String>,
    pub text: String,
}

impl YourTurn {
    pub fn new(
        config: &NotifyConfig,
        game: &str,
        scenario: &str,
        side: Side,
        turn: u32,
        deadline: Option<i64>,
    ) -> YourTurn {
        let link = config
            .public_url
            .as_ref()
            .map(|u| format!("{}/#/", u.trim_end_matches('/')));
        let mut text = format!(
            "Your turn in Volley game {game} ({scenario}): {} to play, game turn {turn}.",
            side.title()
        );
        if let Some(d) = deadline {
            text.push_str(&format!(
                " The time for your move runs out at {} UTC; after that your opponent may claim the win.",
                utc(d)
            ));
        }
        match &link {
            Some(l) => text.push_str(&format!(" Open it from your games list: {l}")),
            None => text.push_str(" Open it from your games list on the server."),
        }
        YourTurn {
            kind: "your_turn",
            game: game.to_string(),
            scenario: scenario.to_string(),
            side,
            turn,
            deadline,
            link,
            text,
        }
    }
}

/// Sends the message to the contact's webhook and e-mail, in the background; a failure is
/// written to the server's log (the move stands whatever happens to its message).
pub fn send(config: &NotifyConfig, contact: &Contact, message: YourTurn) {
    if let Some(url) = contact.webhook.clone() {
        let message = message.clone();
        tokio::spawn(async move {
            if let Err(e) = post_webhook(&url, &message).await {
                tracing::warn!(
                    game = %message.game,
                    "the \"your turn\" webhook to {url} failed: {e}"
                );
            }
        });
    }
    if let Some(to) = contact.email.clone() {
        let Some(smtp) = config.smtp.clone() else {
            tracing::warn!(
                game = %message.game,
                side = %message.side,
                "e-mail was asked for, but this server has no mail relay (--smtp)"
            );
            return;
        };
        tokio::spawn(async move {
            if let Err(e) = send_mail(&smtp, &to, &message).await {
                tracing::warn!(
                    game = %message.game,
                    "the \"your turn\" e-mail to {to} through {}:{} failed: {e}",
                    smtp.host,
                    smtp.port
                );
            }
        });
    }
}

async fn post_webhook(url: &str, message: &YourTurn) -> Result<(), String> {
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let res = client
        .post(url)
        .json(message)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !res.status().is_success() {
        return Err(format!("it answered {}", res.status()));
    }
    Ok(())
}

async fn send_mail(smtp: &Smtp, to: &str, message: &YourTurn) -> Result<(), String> {
    let email = Message::builder()
        .from(
            smtp.from
                .parse()
                .map_err(|e| format!("the sender {}: {e}", smtp.from))?,
        )
        .to(to.parse().map_err(|e| format!("the address {to}: {e}"))?)
        .subject(format!(
            "Volley: your turn ({}, game {})",
            message.scenario, message.game
        ))
        .header(ContentType::TEXT_PLAIN)
        .body(message.text.clone())
        .map_err(|e| format!("the message cannot be made: {e}"))?;
    let mailer = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
        .port(smtp.port)
        .timeout(Some(std::time::Duration::from_secs(20)))
        .build();
    mailer.send(email).await.map_err(|e| e.to_string())?;
    Ok(())
}

/// Unix seconds as `2026-11-25 17:40`.
pub fn utc(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_addresses() {
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(1_795_628_400), "2026-11-25 17:40");
        assert!(check_webhook("https://example.org/hook").is_ok());
        assert!(check_webhook("ftp://example.org/").is_err());
        assert!(check_webhook("http:///x").is_err());
        assert!(check_email("a@example.org").is_ok());
        assert!(check_email("nobody").is_err());
        let e = Smtp::parse("localhost:x", "v@example.org").unwrap_err();
        assert!(e.contains("port"), "{e}");
    }
}
