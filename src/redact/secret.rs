//! Secrets: credentials found in any string, kept or not, replaced by `[secret:KIND]`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex_lite::Regex;

/// The kinds found, one a line: the kind, a space, its pattern; in the order they are looked
/// for. A secret is the match's group 1 where the pattern has one (a URL's credentials, the
/// token after `Bearer`), else the whole match.
const KINDS: &str = include_str!("words/secrets.txt");

/// Cheap tells: a string with none of them holds no secret of [`KINDS`].
const TELLS: &str = include_str!("words/tells.txt");

/// Key names (lower case, no `-` or `_`) whose string value is a credential: a key ending in one.
const CREDENTIAL_KEYS: &str = include_str!("words/credential-keys.txt");

static PATTERNS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    KINDS
        .lines()
        .map(|line| line.split_once(' ').expect("a kind, a space, a pattern"))
        .map(|(kind, re)| (kind, Regex::new(re).expect("a valid pattern")))
        .collect()
});

/// How many secrets of each kind were replaced.
pub type Counts = BTreeMap<&'static str, u64>;

/// A key whose string value is a credential whatever it looks like.
pub fn is_credential_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['-', '_'], "");
    CREDENTIAL_KEYS.lines().any(|w| k.ends_with(w))
}

/// The placeholder of a secret of `kind`.
pub fn placeholder(kind: &str) -> String {
    format!("[secret:{kind}]")
}

/// Whether `s` is a placeholder this module writes.
pub fn is_placeholder(s: &str) -> bool {
    s.strip_prefix("[secret:")
        .and_then(|r| r.strip_suffix(']'))
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
}

/// `s` with every secret replaced by its placeholder, counted in `counts`.
pub fn replace(s: &str, counts: &mut Counts) -> Option<String> {
    if !TELLS.lines().any(|t| s.contains(t)) {
        return None;
    }
    let mut text: Option<String> = None;
    for (kind, re) in PATTERNS.iter() {
        let cur = text.as_deref().unwrap_or(s);
        // The match with its group 1 (if it has one) replaced.
        let replaced = re.replace_all(cur, |caps: &regex_lite::Captures| {
            *counts.entry(kind).or_default() += 1;
            let all = caps.get(0).expect("a match has group 0");
            let m = caps.get(1).unwrap_or(all);
            let (before, after) = (&cur[all.start()..m.start()], &cur[m.end()..all.end()]);
            format!("{before}{}{after}", placeholder(kind))
        });
        if let Cow::Owned(out) = replaced {
            text = Some(out);
        }
    }
    text
}

/// Splits `s` into the text around placeholders (`false`) and the placeholders (`true`).
pub fn pieces(s: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match rest.find("[secret:") {
            Some(0) => rest.find(']').map_or(rest.len(), |e| e + 1),
            Some(i) => i,
            None => rest.len(),
        };
        let (piece, r) = rest.split_at(end);
        rest = r;
        Some((piece, is_placeholder(piece)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_found_and_placeholders_are_stable() {
        let cases = [
            (
                "anthropic-key",
                "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv-123 here",
            ),
            ("openai-key", "key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx here"),
            ("google-key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
            ("aws-key", "id AKIAIOSFODNN7EXAMPLE ok"),
            ("github-token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            ("slack-token", "xoxb-123456789012-abcdefghij"),
            ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_nature"),
            (
                "bearer-token",
                "Authorization: Bearer abcdef0123456789abcdef",
            ),
            ("email", "write to alice.smith@example.com please"),
            (
                "url-credentials",
                "postgres://admin:hunter2@db.internal:5432/x",
            ),
            (
                "private-key",
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            ),
        ];
        for (kind, s) in cases {
            let mut counts = Counts::new();
            let out = replace(s, &mut counts).unwrap_or_else(|| panic!("{kind}: none in {s}"));
            assert!(out.contains(&placeholder(kind)), "{kind}: {out}");
            assert_eq!(counts.get(kind), Some(&1), "{kind}: {counts:?}");
            let mut again = Counts::new();
            assert_eq!(replace(&out, &mut again).unwrap_or(out.clone()), out);
            assert!(again.is_empty(), "{kind}: {again:?}");
        }
        assert_eq!(
            replace("sk-fake***1234 and Paris", &mut Counts::new()),
            None
        );
    }

    #[test]
    fn pieces_split_around_placeholders() {
        let p: Vec<_> = pieces("a [secret:email] b [x]").collect();
        assert_eq!(
            p,
            vec![("a ", false), ("[secret:email]", true), (" b [x]", false)]
        );
    }
}
