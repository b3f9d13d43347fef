//! A v3 message event's `usage` and `metadata`, read for what the adapter reads of them
//! ([`crate::adapter::content::usage_from`]: token counts, the model's provider and name)
//! instead of as `Value` maps. On a `message-finish` line the two maps, each key hashed
//! into an ordered map, cost more than parsing the whole line.
//!
//! Read exactly as `usage_from` reads the `Value`s: a repeated key's last value counts, a
//! count is a non-negative integer that fits a `u64` (anything else is no count), a name is a
//! string. An object whose first key is `serde_json`'s raw-value token (which `Value`'s own
//! visitor reads apart) gives up the typed path.

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::bail;
use crate::input::msgcache::RAW_VALUE_TOKEN;
use crate::input::prune::{seed_by_visiting_any, Key};
use crate::model::Usage;

/// A `usage` object's counts (`usage_from` reads nothing of a `usage` that is not an object).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageCounts {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub total_tokens: Option<u64>,
    /// `output_token_details.reasoning`.
    pub reasoning_tokens: Option<u64>,
}

/// A `metadata` object's model names (each `None` unless a string; both `None` when
/// `metadata` is not an object).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelNames {
    pub provider: Option<String>,
    pub model: Option<String>,
}

/// The [`Usage`] of an event's `usage` and `metadata` (`metadata` `None` where the event's
/// kind does not read it), as `usage_from` gives it.
pub fn usage_of(usage: Option<&UsageCounts>, metadata: Option<&ModelNames>) -> Option<Usage> {
    let u = usage?;
    Some(Usage {
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        total_tokens: u.total_tokens,
        reasoning_tokens: u.reasoning_tokens,
        provider: metadata.and_then(|m| m.provider.clone()),
        model: metadata.and_then(|m| m.model.clone()),
    })
}

/// The visits of `null`, a boolean, a negative or fractional number and a list (read
/// through): `Default`. Each visitor adds the string, the non-negative integer and the
/// object.
macro_rules! default_for_others {
    () => {
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any value")
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
            while s.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

/// Each key of an object to `f` (which reads its value; `None`: the value is not read), the
/// raw-value token first giving up.
fn entries<'de, A: MapAccess<'de>>(
    mut m: A,
    mut f: impl FnMut(&str, &mut A) -> Result<Option<()>, A::Error>,
) -> Result<(), A::Error> {
    let mut first = true;
    while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
        if first && k == RAW_VALUE_TOKEN {
            return Err(bail());
        }
        first = false;
        if f(&k, &mut m)?.is_none() {
            m.next_value::<IgnoredAny>()?;
        }
    }
    Ok(())
}

/// `usage`: `Some` of an object's counts, `None` for anything else.
pub(super) struct UsageSeed;

seed_by_visiting_any!(UsageSeed => Option<UsageCounts>);

impl<'de> Visitor<'de> for UsageSeed {
    type Value = Option<UsageCounts>;
    default_for_others!();
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        let mut u = UsageCounts::default();
        entries(m, |k, m| {
            let slot = match k {
                "input_tokens" => &mut u.input_tokens,
                "output_tokens" => &mut u.output_tokens,
                "total_tokens" => &mut u.total_tokens,
                "output_token_details" => {
                    u.reasoning_tokens = m.next_value_seed(Details)?;
                    return Ok(Some(()));
                }
                _ => return Ok(None),
            };
            *slot = m.next_value_seed(Count)?;
            Ok(Some(()))
        })?;
        Ok(Some(u))
    }
}

/// `output_token_details`: its `reasoning` count.
struct Details;

seed_by_visiting_any!(Details => Option<u64>);

impl<'de> Visitor<'de> for Details {
    type Value = Option<u64>;
    default_for_others!();
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        let mut reasoning = None;
        entries(m, |k, m| {
            if k != "reasoning" {
                return Ok(None);
            }
            reasoning = m.next_value_seed(Count)?;
            Ok(Some(()))
        })?;
        Ok(reasoning)
    }
}

/// `metadata`: an object's `model_provider` and `model_name`.
pub(super) struct MetadataSeed;

seed_by_visiting_any!(MetadataSeed => ModelNames);

impl<'de> Visitor<'de> for MetadataSeed {
    type Value = ModelNames;
    default_for_others!();
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(ModelNames::default())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(ModelNames::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        let mut names = ModelNames::default();
        entries(m, |k, m| {
            let slot = match k {
                "model_provider" => &mut names.provider,
                "model_name" => &mut names.model,
                _ => return Ok(None),
            };
            *slot = m.next_value_seed(Name)?;
            Ok(Some(()))
        })?;
        Ok(names)
    }
}

/// A count: a non-negative integer that fits a `u64` (`Value::as_u64`).
struct Count;

seed_by_visiting_any!(Count => Option<u64>);

impl<'de> Visitor<'de> for Count {
    type Value = Option<u64>;
    default_for_others!();
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Some(n))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        entries(m, |_, _| Ok(None))?;
        Ok(None)
    }
}

/// A name: a string (`Value::as_str`).
struct Name;

seed_by_visiting_any!(Name => Option<String>);

impl<'de> Visitor<'de> for Name {
    type Value = Option<String>;
    default_for_others!();
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Some(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(Some(s))
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        entries(m, |_, _| Ok(None))?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::content::usage_from;
    use serde::de::DeserializeSeed;
    use serde_json::Value;

    fn read(usage: &str, metadata: &str) -> Option<Option<Usage>> {
        let mut du = serde_json::Deserializer::from_str(usage);
        let u = UsageSeed.deserialize(&mut du).ok()?;
        let mut dm = serde_json::Deserializer::from_str(metadata);
        let m = MetadataSeed.deserialize(&mut dm).ok()?;
        Some(usage_of(u.as_ref(), Some(&m)))
    }

    /// Every shape of `usage` and `metadata`: what `usage_from` gives for their `Value`s,
    /// or (the raw-value token) a typed path given up.
    #[test]
    fn reads_as_usage_from_does() {
        let usages = [
            r#"{"input_tokens":12,"output_tokens":9,"total_tokens":21}"#,
            r#"{"input_tokens":1,"output_tokens":2,"total_tokens":3,"input_token_details":{"cache_read":0},"output_token_details":{"reasoning":4,"x":[1]}}"#,
            r#"{"input_tokens":-1,"output_tokens":1.0,"total_tokens":18446744073709551616}"#,
            r#"{"input_tokens":"3","output_tokens":null,"total_tokens":[3],"x":{"input_tokens":5}}"#,
            r#"{"input_tokens":1,"input_tokens":2,"output_token_details":{"reasoning":4},"output_token_details":7}"#,
            r#"{"output_token_details":{"reasoning":4,"reasoning":"5"}}"#,
            r#"{"total_tokens":{"a":[{"b":1}]},"output_token_details":[{"reasoning":1}]}"#,
            r#"{}"#,
            r#"null"#,
            r#"7"#,
            r#"-7"#,
            r#""s""#,
            r#"[{"input_tokens":1}]"#,
            r#"true"#,
        ];
        let metadatas = [
            r#"{"model_provider":"openai","model_name":"gpt","finish_reason":"stop"}"#,
            r#"{"model_provider":1,"model_name":["m"],"x":{"model_name":"n"}}"#,
            r#"{"model_name":"a","model_name":null,"model_provider":"p\n\u00e9","model_provider":"q"}"#,
            r#"{"model_name":{"a":1}}"#,
            r#"{}"#,
            r#"null"#,
            r#"[1,{"model_name":"m"}]"#,
            r#""s""#,
            r#"3"#,
        ];
        for u in usages {
            for m in metadatas {
                let (uv, mv): (Value, Value) = (
                    serde_json::from_str(u).expect("json"),
                    serde_json::from_str(m).expect("json"),
                );
                assert_eq!(
                    read(u, m),
                    Some(usage_from(Some(&uv), Some(&mv))),
                    "{u} {m}"
                );
            }
        }
        // The raw-value token: `Value`'s visitor reads such an object apart.
        let raw = r#"{"$serde_json::private::RawValue":"1"}"#;
        assert_eq!(read(raw, "{}"), None);
        assert_eq!(read("{}", raw), None);
        assert_eq!(
            read(&format!(r#"{{"output_token_details":{raw}}}"#), "{}"),
            None
        );
    }
}
