//! Reading an A2A agent card: which endpoint, binding and protocol version the client uses, as
//! the official `ClientFactory` (`@a2a-js/sdk` 1.3.0) picks them.
//!
//! - v1.0 cards list `supportedInterfaces: [{url, protocolBinding, protocolVersion, tenant?}]`
//!   in the agent's order of preference. Per binding a browser can speak (`JSONRPC`,
//!   `HTTP+JSON`; not `GRPC`) the first interface counts, replaced by a later one of version
//!   1.0 (the official client's rule); the client's preferred binding is taken first when the
//!   card has it, else the card's first binding.
//! - v0.3 cards have `url` with `preferredTransport` (default `JSONRPC`), `protocolVersion`
//!   (`0.3.0`) and `additionalInterfaces: [{url, transport}]`.
//!
//! - A v1.0 interface's `tenant`: over HTTP+JSON a path segment after the interface URL (as the
//!   official JS client and server have it), over JSON-RPC a member of every request's `params`
//!   ([`Interface::tenant`]).
//!
//! A relative interface URL is resolved against the card's own URL by the caller.

use crate::dialects::a2a::request_v1::{segment, Binding};
use crate::dialects::a2a::Version;
use crate::json::{parse, Value};

/// The interface the client talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    /// The endpoint (JSON-RPC: where every request goes; HTTP+JSON: the base of the paths,
    /// with the tenant as its last segment when the card names one).
    pub url: String,
    /// The binding.
    pub binding: Binding,
    /// The protocol version.
    pub version: Version,
    /// JSON-RPC: the interface's `tenant`, which every request names in its `params` (over
    /// HTTP+JSON the tenant is the last segment of `url` instead).
    pub tenant: Option<String>,
}

/// Picks the interface from the card's JSON text; `prefer`: the binding the app asked for.
/// `Err` says why no interface fits (for the connection's `failed` reason).
pub fn pick(card: &str, prefer: Option<Binding>) -> Result<Interface, String> {
    let v = parse(card).map_err(|e| format!("the agent card is not JSON: {e}"))?;
    if v.as_object().is_none() {
        return Err("the agent card is not a JSON object".to_owned());
    }
    let mut found: Vec<Interface> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for i in v
        .get("supportedInterfaces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let url = i.get("url").and_then(Value::as_str);
        let binding = i.get("protocolBinding").and_then(Value::as_str);
        let version = i.get("protocolVersion").and_then(Value::as_str);
        seen.push(format!(
            "{} {}",
            binding.unwrap_or("?"),
            version.unwrap_or("?")
        ));
        let (Some(url), Some(b), Some(ver)) = (
            url,
            binding.and_then(Binding::parse),
            version.and_then(Version::parse),
        ) else {
            continue;
        };
        if ver == Version::V03 && b != Binding::JsonRpc {
            continue;
        }
        let tenant = i
            .get("tenant")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty() && ver == Version::V10);
        let iface = Interface {
            url: match (tenant, b) {
                (Some(t), Binding::HttpJson) => {
                    format!("{}/{}", url.trim_end_matches('/'), segment(t))
                }
                _ => url.to_owned(),
            },
            binding: b,
            version: ver,
            tenant: tenant.filter(|_| b == Binding::JsonRpc).map(str::to_owned),
        };
        // Per binding: the first interface, replaced by a later v1.0 one when the kept one is
        // not v1.0 (the official ClientFactory's rule).
        if let Some(kept) = found.iter_mut().find(|f| f.binding == b) {
            if kept.version != Version::V10 && ver == Version::V10 {
                *kept = iface;
            }
            continue;
        }
        found.push(iface);
    }
    if found.is_empty() && seen.is_empty() {
        // A v0.3 card.
        if let Some(url) = v.get("url").and_then(Value::as_str) {
            let version = v
                .get("protocolVersion")
                .and_then(Value::as_str)
                .and_then(Version::parse)
                .unwrap_or(Version::V03);
            let preferred = v
                .get("preferredTransport")
                .and_then(Value::as_str)
                .unwrap_or("JSONRPC");
            let mut candidates = vec![(url, preferred)];
            for i in v
                .get("additionalInterfaces")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let (Some(u), Some(t)) = (
                    i.get("url").and_then(Value::as_str),
                    i.get("transport").and_then(Value::as_str),
                ) {
                    candidates.push((u, t));
                }
            }
            for (u, t) in candidates {
                seen.push(format!("{t} {}", version.as_str()));
                if Binding::parse(t) == Some(Binding::JsonRpc) {
                    found.push(Interface {
                        url: u.to_owned(),
                        binding: Binding::JsonRpc,
                        version,
                        tenant: None,
                    });
                }
            }
        }
    }
    if let Some(p) = prefer {
        if let Some(i) = found.iter().find(|i| i.binding == p) {
            return Ok(i.clone());
        }
    }
    found.into_iter().next().ok_or_else(|| {
        format!(
            "the agent card offers no interface agentwire speaks (JSONRPC 1.0/0.3, HTTP+JSON 1.0); it offers: {}",
            if seen.is_empty() {
                "none".to_owned()
            } else {
                seen.join(", ")
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"{"name":"a","supportedInterfaces":[
        {"url":"http://h/a2a/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"},
        {"url":"http://h/a2a/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
        {"url":"http://h/a2a/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0","tenant":"acme corp"}]}"#;

    #[test]
    fn v1_card_first_usable_interface_or_the_preferred_binding() {
        let i = pick(V1, None).unwrap();
        assert_eq!(
            (i.url.as_str(), i.binding, i.version),
            ("http://h/a2a/jsonrpc", Binding::JsonRpc, Version::V10)
        );
        let i = pick(V1, Some(Binding::HttpJson)).unwrap();
        assert_eq!(i.url, "http://h/a2a/rest/acme%20corp");
        assert_eq!((i.binding, i.tenant), (Binding::HttpJson, None));
    }

    #[test]
    fn a_jsonrpc_interface_keeps_its_tenant_for_the_params() {
        let i = pick(
            r#"{"supportedInterfaces":[{"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"acme"}]}"#,
            None,
        )
        .unwrap();
        assert_eq!(
            (i.url.as_str(), i.tenant.as_deref()),
            ("http://h/rpc", Some("acme"))
        );
    }

    #[test]
    fn per_binding_a_later_v1_interface_wins_over_an_earlier_v03_one() {
        let card = r#"{"supportedInterfaces":[
            {"url":"http://h/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
            {"url":"http://h/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
            {"url":"http://h/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}"#;
        let i = pick(card, None).unwrap();
        assert_eq!((i.url.as_str(), i.version), ("http://h/v1", Version::V10));
        let i = pick(card, Some(Binding::HttpJson)).unwrap();
        assert_eq!(i.url, "http://h/rest");
    }

    #[test]
    fn v03_card_and_cards_without_a_usable_interface() {
        let i = pick(
            r#"{"url":"http://h/rpc","protocolVersion":"0.3.0","preferredTransport":"JSONRPC"}"#,
            Some(Binding::HttpJson),
        )
        .unwrap();
        assert_eq!((i.binding, i.version), (Binding::JsonRpc, Version::V03));
        let e = pick(
            r#"{"supportedInterfaces":[{"url":"x","protocolBinding":"GRPC","protocolVersion":"1.0"}]}"#,
            None,
        )
        .unwrap_err();
        assert!(e.contains("GRPC 1.0"), "{e}");
        assert!(pick("[1]", None).is_err());
        assert!(pick("not json", None).is_err());
    }
}
