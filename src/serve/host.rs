//! The `Host` check against DNS rebinding: a server bound to loopback answers only requests
//! addressed to a loopback name (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`), the host
//! of `--listen`, or a host allowed with `--allow-host` (`*` turns the check off).

use std::net::{IpAddr, SocketAddr};

use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::refusal::Refusal;
use crate::text::printable;

/// Which `Host` values are answered.
#[derive(Debug, Clone)]
pub struct HostCheck {
    /// Extra allowed host names (lower case, no port).
    allowed: Vec<String>,
}

impl HostCheck {
    /// `None` when every host is answered: bound to a non-loopback address with no
    /// `--allow-host`, or `--allow-host '*'`.
    pub fn new(bound: SocketAddr, listen: &str, allow: &[String]) -> Option<Self> {
        if allow.iter().any(|h| h == "*") || (!bound.ip().is_loopback() && allow.is_empty()) {
            return None;
        }
        let allowed = allow
            .iter()
            .map(String::as_str)
            .chain([listen])
            .map(|h| normalize(host_name(h)))
            .collect();
        Some(HostCheck { allowed })
    }

    pub fn allows(&self, host: &str) -> bool {
        let name = normalize(host_name(host));
        is_loopback_name(&name) || self.allowed.contains(&name)
    }
}

/// The middleware: 403 `HOST_NOT_ALLOWED` for a request whose `Host` is not allowed (requests
/// without a `Host`, which no browser sends, pass).
pub async fn check(policy: HostCheck, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    match host {
        Some(host) if !policy.allows(&host) => {
            let name = printable(host_name(&host)).into_owned();
            Refusal::HostNotAllowed(name).into_response()
        }
        _ => next.run(req).await,
    }
}

/// `--listen`: HOST:PORT (`[::1]:8000` for IPv6), or a bare PORT on loopback (127.0.0.1).
pub fn parse_listen(s: &str) -> Result<String, String> {
    if s.parse::<u16>().is_ok() {
        return Ok(format!("127.0.0.1:{s}"));
    }
    match s.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => Ok(s.to_string()),
        _ => Err("expected HOST:PORT or PORT, e.g. 127.0.0.1:8000 or 8000".to_string()),
    }
}

/// The host of a `Host` header or `--listen` address, without the port.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split_once(']').map_or(host, |(inside, _)| inside);
    }
    match host.rsplit_once(':') {
        // One colon: HOST:PORT. More: a bare IPv6 address.
        Some((name, _)) if !name.contains(':') => name,
        _ => host,
    }
}

fn normalize(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

fn is_loopback_name(name: &str) -> bool {
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> SocketAddr {
        "127.0.0.1:8000".parse().expect("addr")
    }

    #[test]
    fn loopback_names_pass_others_do_not() {
        let check = HostCheck::new(loopback(), "127.0.0.1:8000", &[]).expect("on");
        for ok in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST",
            "app.localhost:3000",
            "[::1]:8000",
            "127.1.2.3",
            "localhost.",
        ] {
            assert!(check.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8000",
            "localhost.evil.example",
            "192.168.1.2:8000",
            "",
        ] {
            assert!(!check.allows(bad), "{bad}");
        }
    }

    #[test]
    fn allow_host_and_listen_host() {
        let check = HostCheck::new(loopback(), "dev.test:8000", &["Box.Lan".into()]).expect("on");
        assert!(check.allows("dev.test:8000"));
        assert!(check.allows("box.lan:1234"));
        assert!(!check.allows("other.lan"));
        assert!(HostCheck::new(loopback(), "8000", &["*".into()]).is_none());
        let public: SocketAddr = "0.0.0.0:8000".parse().expect("addr");
        assert!(HostCheck::new(public, "0.0.0.0:8000", &[]).is_none());
        assert!(HostCheck::new(public, "0.0.0.0:8000", &["box.lan".into()]).is_some());
    }
}
