//! A parser for Python `repr` text, which is all langchain `dumpd` keeps of LangGraph's
//! `Interrupt`, `Command` and exception objects:
//! `Interrupt(value={'type': 'approval'}, id='c88e…', response_schema=None)`.
//!
//! Literals map to JSON (`True`/`False`/`None`, str, int, float, dict, list, tuple, set);
//! a call `Name(a, k=v)` maps to `{"__type__": "Name", "k": v, "_0": a}`; an `<object at 0x…>`
//! stays a string. Any other text is `None`: the callers only ask whether a text is a repr.

use serde_json::{Number, Value};

/// Nesting deeper than this is refused, as serde_json refuses deeper JSON.
const MAX_DEPTH: usize = 128;

/// The value a `repr` text stands for; `None` when the text is not one.
pub fn parse(text: &str) -> Option<Value> {
    let mut p = Parser {
        s: text,
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    (p.i == text.len()).then_some(v)
}

/// A recursive-descent parser: `i` is the next byte of `s`.
struct Parser<'a> {
    s: &'a str,
    i: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// The byte `k` places after the next.
    fn ahead(&self, k: usize) -> Option<u8> {
        self.s.as_bytes().get(self.i + k).copied()
    }

    /// The bytes from here that `keep` accepts, stepped over.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.i;
        while self.ahead(0).is_some_and(&keep) {
            self.i += 1;
        }
        &self.s[start..self.i]
    }

    fn ws(&mut self) {
        self.take_while(|c| c.is_ascii_whitespace());
    }

    /// Steps over whitespace, then over `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let found = self.ahead(0) == Some(c);
        self.i += usize::from(found);
        found
    }

    fn value(&mut self) -> Option<Value> {
        self.ws();
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let v = match self.ahead(0)? {
            quote @ (b'\'' | b'"') => self.string(quote).map(Value::String),
            b'{' => self.dict_or_set(),
            b'[' => self.items(b']', Self::value).map(Value::Array),
            b'(' => self.items(b')', Self::value).map(Value::Array),
            b'-' | b'+' | b'0'..=b'9' => self.number(),
            c if c.is_ascii_alphabetic() || c == b'_' => self.name_or_call(),
            b'<' => self.angle(),
            _ => None,
        };
        self.depth -= 1;
        v
    }

    /// The items after an opening bracket up to `close`, separated by commas (a trailing one
    /// allowed), each read by `item`.
    fn items<T>(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.i += 1;
        let mut out = vec![];
        while !self.eat(close) {
            out.push(item(self)?);
            if !self.eat(b',') {
                return self.eat(close).then_some(out);
            }
        }
        Some(out)
    }

    /// A dict (its keys as JSON text when not strings), or a set (as a list) when no item is
    /// `key: value`.
    fn dict_or_set(&mut self) -> Option<Value> {
        let items = self.items(b'}', |p| {
            let k = p.value()?;
            let v = if p.eat(b':') { Some(p.value()?) } else { None };
            Some((k, v))
        })?;
        if !items.is_empty() && items.iter().all(|(_, v)| v.is_none()) {
            return Some(Value::Array(items.into_iter().map(|(k, _)| k).collect()));
        }
        let key = |k| match k {
            Value::String(s) => s,
            other => other.to_string(),
        };
        let pairs = items.into_iter().filter_map(|(k, v)| Some((key(k), v?)));
        Some(Value::Object(pairs.collect()))
    }

    /// `<object at 0x…>`-style reprs (`<…>` nested in them too) are kept as strings.
    fn angle(&mut self) -> Option<Value> {
        let start = self.i;
        let mut depth = 0;
        while let Some(c) = self.ahead(0) {
            self.i += 1;
            match c {
                b'<' => depth += 1,
                b'>' if depth == 1 => return Some(self.s[start..self.i].into()),
                b'>' => depth -= 1,
                _ => {}
            }
        }
        None
    }

    fn string(&mut self, quote: u8) -> Option<String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            out.push_str(self.take_while(|c| c != quote && c != b'\\'));
            if self.ahead(0)? == quote {
                self.i += 1;
                return Some(out);
            }
            let escaped = self.ahead(1)?;
            self.i += 2;
            out.push(match escaped {
                b'n' => '\n',
                b't' => '\t',
                b'r' => '\r',
                b'0' => '\0',
                b'\\' | b'\'' | b'"' => char::from(escaped),
                b'x' => self.hex(2)?,
                b'u' => self.hex(4)?,
                b'U' => self.hex(8)?,
                // Not an escape: the backslash stays, the character after it is read as text.
                _ => {
                    self.i -= 1;
                    '\\'
                }
            });
        }
    }

    fn hex(&mut self, digits: usize) -> Option<char> {
        let code = u32::from_str_radix(self.s.get(self.i..self.i + digits)?, 16).ok()?;
        self.i += digits;
        Some(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        self.i += 1; // the sign or first digit
        loop {
            match (self.ahead(0), self.ahead(1)) {
                (Some(b'e' | b'E'), Some(b'-' | b'+')) => self.i += 2,
                (Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'_'), _) => self.i += 1,
                _ => break,
            }
        }
        let text = self.s[start..self.i].replace('_', "");
        match text.parse::<i64>() {
            Ok(i) => Some(i.into()),
            Err(_) => Number::from_f64(text.parse().ok()?).map(Value::Number),
        }
    }

    /// A name (`True`, `False` and `None` are literals, any other a string), or a call of it:
    /// its keyword arguments by name, its positional ones as `_0`, `_1`…
    fn name_or_call(&mut self) -> Option<Value> {
        let name = self.take_while(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
        self.ws();
        if self.ahead(0) != Some(b'(') {
            return Some(match name {
                "True" => Value::Bool(true),
                "False" => Value::Bool(false),
                "None" => Value::Null,
                other => other.into(),
            });
        }
        let mut positional = 0..;
        let args = self.items(b')', |p| {
            p.ws();
            let start = p.i;
            let key = p.take_while(|c| c.is_ascii_alphanumeric() || c == b'_');
            if !key.is_empty() && p.eat(b'=') && p.ahead(0) != Some(b'=') {
                return Some((key.to_string(), p.value()?));
            }
            p.i = start;
            Some((format!("_{}", positional.next()?), p.value()?))
        })?;
        let head = ("__type__".to_string(), Value::from(name));
        Some(Value::Object(std::iter::once(head).chain(args).collect()))
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn interrupt_repr() {
        let v = parse("Interrupt(value={'type': 'approval', 'message': 'Approve order?', 'order': {'item': 'widget', 'qty': 2}}, id='c88ec84ae92868ad8ec8f3697557c22d', response_schema=None)").expect("parses");
        assert_eq!(v["__type__"], "Interrupt");
        assert_eq!(v["id"], "c88ec84ae92868ad8ec8f3697557c22d");
        assert_eq!(v["value"]["order"]["qty"], 2);
        assert_eq!(v["response_schema"], Value::Null);
    }

    #[test]
    fn command_and_escapes() {
        let v = parse(r#"Command(resume={'approved': True, 'note': "it's \"ok\"\n"})"#)
            .expect("parses");
        assert_eq!(
            v["resume"],
            json!({"approved": true, "note": "it's \"ok\"\n"})
        );
    }

    #[test]
    fn exception_positional() {
        let v = parse("ValueError('boom', 3.5, -2)").expect("parses");
        assert_eq!(v["_0"], "boom");
        assert_eq!(v["_2"], -2);
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse("Interrupt(value={'a': }").is_none());
        assert!(parse(&"[".repeat(1000)).is_none());
    }
}
