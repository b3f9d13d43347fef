//! A parser for Python `repr` text, which is all langchain `dumpd` keeps of LangGraph's
//! `Interrupt`, `Command` and exception objects:
//! `Interrupt(value={'type': 'approval'}, id='c88e…', response_schema=None)`.
//!
//! Literals map to JSON (`True`/`False`/`None`, str, int, float, dict, list, tuple, set);
//! a call `Name(a, k=v)` maps to `{"__type__": "Name", "k": v, "_0": a}`.

use serde_json::{Map, Number, Value};

#[derive(Debug, PartialEq)]
pub struct ReprError {
    pub offset: usize,
    pub expected: &'static str,
}

impl std::fmt::Display for ReprError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Python repr: expected {} at offset {}",
            self.expected, self.offset
        )
    }
}

const MAX_DEPTH: usize = 128;

pub fn parse(text: &str) -> Result<Value, ReprError> {
    let mut p = Parser {
        s: text.as_bytes(),
        src: text,
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("end of input"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, expected: &'static str) -> ReprError {
        ReprError {
            offset: self.i,
            expected,
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, ReprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("less nesting"));
        }
        let v = self.value_inner();
        self.depth -= 1;
        v
    }

    fn value_inner(&mut self) -> Result<Value, ReprError> {
        self.ws();
        let Some(&c) = self.s.get(self.i) else {
            return Err(self.err("a value"));
        };
        match c {
            b'\'' | b'"' => self.string().map(Value::String),
            b'{' => self.dict_or_set(),
            b'[' => {
                self.i += 1;
                self.seq(b']').map(Value::Array)
            }
            b'(' => {
                self.i += 1;
                self.seq(b')').map(Value::Array)
            }
            b'-' | b'+' | b'0'..=b'9' => self.number(),
            c if c.is_ascii_alphabetic() || c == b'_' => self.name_or_call(),
            b'<' => self.angle(),
            _ => Err(self.err("a Python literal")),
        }
    }

    /// `<object at 0x…>`-style reprs are kept as strings.
    fn angle(&mut self) -> Result<Value, ReprError> {
        let start = self.i;
        let mut depth = 0usize;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Ok(Value::String(self.src[start..self.i].to_string()));
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        Err(self.err("'>'"))
    }

    fn seq(&mut self, close: u8) -> Result<Vec<Value>, ReprError> {
        let mut out = vec![];
        loop {
            if self.eat(close) {
                return Ok(out);
            }
            out.push(self.value()?);
            if !self.eat(b',') {
                if self.eat(close) {
                    return Ok(out);
                }
                return Err(self.err("',' or a closing bracket"));
            }
        }
    }

    fn dict_or_set(&mut self) -> Result<Value, ReprError> {
        self.i += 1;
        let mut map = Map::new();
        let mut set = vec![];
        loop {
            if self.eat(b'}') {
                break;
            }
            let k = self.value()?;
            if self.eat(b':') {
                let v = self.value()?;
                let key = match k {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                map.insert(key, v);
            } else {
                set.push(k);
            }
            if !self.eat(b',') {
                if self.eat(b'}') {
                    break;
                }
                return Err(self.err("',' or '}'"));
            }
        }
        if !set.is_empty() && map.is_empty() {
            Ok(Value::Array(set))
        } else {
            Ok(Value::Object(map))
        }
    }

    fn string(&mut self) -> Result<String, ReprError> {
        let q = self.s[self.i];
        self.i += 1;
        let mut out = String::new();
        let mut run_start = self.i;
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c == q {
                out.push_str(&self.src[run_start..self.i]);
                self.i += 1;
                return Ok(out);
            }
            if c == b'\\' {
                out.push_str(&self.src[run_start..self.i]);
                self.i += 1;
                let Some(&e) = self.s.get(self.i) else {
                    return Err(self.err("an escape character"));
                };
                self.i += 1;
                match e {
                    b'n' => out.push('\n'),
                    b't' => out.push('\t'),
                    b'r' => out.push('\r'),
                    b'0' => out.push('\0'),
                    b'\\' => out.push('\\'),
                    b'\'' => out.push('\''),
                    b'"' => out.push('"'),
                    b'x' => out.push(self.hex(2)?),
                    b'u' => out.push(self.hex(4)?),
                    b'U' => out.push(self.hex(8)?),
                    _ => {
                        out.push('\\');
                        self.i -= 1;
                        run_start = self.i;
                        continue;
                    }
                }
                run_start = self.i;
                continue;
            }
            self.i += 1;
        }
        Err(self.err("a closing quote"))
    }

    fn hex(&mut self, n: usize) -> Result<char, ReprError> {
        let end = self.i + n;
        let digits = self.src.get(self.i..end).ok_or(self.err("hex digits"))?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| self.err("hex digits"))?;
        self.i = end;
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    fn number(&mut self) -> Result<Value, ReprError> {
        let start = self.i;
        if matches!(self.s[self.i], b'-' | b'+') {
            self.i += 1;
        }
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_digit()
                || matches!(self.s[self.i], b'.' | b'e' | b'E' | b'_'))
        {
            if matches!(self.s[self.i], b'e' | b'E')
                && matches!(self.s.get(self.i + 1), Some(b'-') | Some(b'+'))
            {
                self.i += 1;
            }
            self.i += 1;
        }
        let text: String = self.src[start..self.i]
            .chars()
            .filter(|c| *c != '_')
            .collect();
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        text.parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or(self.err("a number"))
    }

    fn name_or_call(&mut self) -> Result<Value, ReprError> {
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b'.'))
        {
            self.i += 1;
        }
        let name = &self.src[start..self.i];
        self.ws();
        if self.s.get(self.i) != Some(&b'(') {
            return Ok(match name {
                "True" => Value::Bool(true),
                "False" => Value::Bool(false),
                "None" => Value::Null,
                "inf" | "nan" => Value::String(name.to_string()),
                other => Value::String(other.to_string()),
            });
        }
        self.i += 1;
        let mut obj = Map::new();
        obj.insert("__type__".into(), Value::String(name.to_string()));
        let mut positional = 0;
        loop {
            if self.eat(b')') {
                break;
            }
            // keyword argument?
            self.ws();
            let save = self.i;
            let mut kw = None;
            let ks = self.i;
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
            {
                self.i += 1;
            }
            if self.i > ks {
                let key = self.src[ks..self.i].to_string();
                self.ws();
                if self.s.get(self.i) == Some(&b'=') && self.s.get(self.i + 1) != Some(&b'=') {
                    self.i += 1;
                    kw = Some(key);
                }
            }
            if kw.is_none() {
                self.i = save;
            }
            let v = self.value()?;
            match kw {
                Some(k) => obj.insert(k, v),
                None => {
                    positional += 1;
                    obj.insert(format!("_{}", positional - 1), v)
                }
            };
            if !self.eat(b',') {
                if self.eat(b')') {
                    break;
                }
                return Err(self.err("',' or ')'"));
            }
        }
        Ok(Value::Object(obj))
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
        assert!(parse("Interrupt(value={'a': }").is_err());
        assert!(parse(&"[".repeat(1000)).is_err());
    }
}
