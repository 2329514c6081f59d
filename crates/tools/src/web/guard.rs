//! The board server's two checks on who may talk to it, pure functions of the request's
//! headers and the bound address, so that they are tested without a socket:
//!
//! - **Host** ([`host_allowed`]): a page on another site can make the browser resolve its own
//!   name to 127.0.0.1 (DNS rebinding) and then read our answers as its own. Such a request
//!   carries that site's name in `Host`, so only `localhost` and IP literals are accepted, with
//!   the bound port, and an IP literal only if it is the bound address (any, when the server
//!   listens on all interfaces).
//! - **Origin** ([`origin_allowed`]): a browser sends the page's origin with every WebSocket
//!   upgrade; an upgrade from any other origin than the server's own is refused. A request with
//!   no `Origin` does not come from a page (a script, a test) and is let through: a browser
//!   always sends one.

use std::net::{IpAddr, SocketAddr};

/// Whether a request whose `Host` header is `host` may be served by a server bound at `bound`.
pub fn host_allowed(host: &str, bound: SocketAddr) -> bool {
    let Some((name, port)) = split_host(host) else {
        return false;
    };
    if port != bound.port() {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return bound.ip().is_loopback() || bound.ip().is_unspecified();
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip == bound.ip() || bound.ip().is_unspecified(),
        Err(_) => false,
    }
}

/// Whether a WebSocket upgrade with this `Origin` header (if any) may go on, on a request
/// whose `Host` is `host` (already accepted by [`host_allowed`]).
pub fn origin_allowed(origin: Option<&str>, host: &str) -> bool {
    match origin {
        None => true,
        Some(origin) => origin
            .strip_prefix("http://")
            .is_some_and(|rest| rest.eq_ignore_ascii_case(host)),
    }
}

/// `name:port` (or `[v6]:port`) split; the port is required (the server never listens on 80
/// by default, and a missing port means 80).
fn split_host(host: &str) -> Option<(&str, u16)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        (name, after.strip_prefix(':'))
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let port = match port {
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok()?,
        Some(_) => return None,
        None => 80,
    };
    if name.is_empty() {
        return None;
    }
    Some((name, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn loopback_names_and_the_bound_address_pass_with_the_port() {
        let bound = at("127.0.0.1:8080");
        assert!(host_allowed("127.0.0.1:8080", bound));
        assert!(host_allowed("localhost:8080", bound));
        assert!(host_allowed("LocalHost:8080", bound));
        assert!(!host_allowed("127.0.0.1:8081", bound));
        assert!(!host_allowed("127.0.0.1", bound));
        assert!(!host_allowed("localhost", bound));
        assert!(!host_allowed("127.0.0.2:8080", bound));
    }

    #[test]
    fn other_names_are_refused_dns_rebinding() {
        let bound = at("127.0.0.1:8080");
        for host in [
            "evil.example:8080",
            "localhost.evil.example:8080",
            "127.0.0.1.nip.io:8080",
            ":8080",
            "",
            "127.0.0.1:80x",
            "127.0.0.1:",
            "[::1]:8080",
        ] {
            assert!(!host_allowed(host, bound), "{host:?}");
        }
        // On all interfaces: any address literal, still no names but localhost.
        let any = at("0.0.0.0:9000");
        assert!(host_allowed("192.168.1.20:9000", any));
        assert!(host_allowed("localhost:9000", any));
        assert!(!host_allowed("my-laptop:9000", any));
        let v6 = at("[::1]:9000");
        assert!(host_allowed("[::1]:9000", v6));
        assert!(host_allowed("localhost:9000", v6));
        assert!(!host_allowed("127.0.0.1:9000", v6));
        // A public address bound on purpose (--host): that address only.
        let public = at("10.0.0.5:9000");
        assert!(host_allowed("10.0.0.5:9000", public));
        assert!(!host_allowed("localhost:9000", public));
    }

    #[test]
    fn only_the_served_origin_may_upgrade() {
        assert!(origin_allowed(None, "127.0.0.1:8080"));
        assert!(origin_allowed(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        ));
        assert!(origin_allowed(
            Some("http://localhost:8080"),
            "localhost:8080"
        ));
        assert!(!origin_allowed(
            Some("http://localhost:8080"),
            "127.0.0.1:8080"
        ));
        assert!(!origin_allowed(
            Some("https://127.0.0.1:8080"),
            "127.0.0.1:8080"
        ));
        assert!(!origin_allowed(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        ));
        assert!(!origin_allowed(Some("null"), "127.0.0.1:8080"));
        assert!(!origin_allowed(
            Some("http://127.0.0.1:8080.evil"),
            "127.0.0.1:8080"
        ));
    }
}
