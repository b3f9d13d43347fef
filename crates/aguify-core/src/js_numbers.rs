//! JSON written with its numbers as `JSON.stringify` writes them, so aguify's output is byte
//! for byte what `@ag-ui/encoder` writes for the same events.
//!
//! serde_json writes a float that has no fraction with one (`1.0`, `2000.0`), and a Python
//! recorder logs such numbers that way; JavaScript writes `1`, `2000`. Floats are written by
//! [`JsFormatter`] with ECMAScript's `Number::prototype::toString` (the `ryu-js` crate: the
//! shortest digits that read back as the same double, laid out as JavaScript lays them out:
//! `1e+21`, `1.5e-7`, `0.000001`). A float therefore reads back as the same double, and every
//! JavaScript consumer writes it back the same. Two exceptions, neither loses a value:
//!
//! - integers are written as they were read, all their digits, also beyond 2^53 where
//!   `JSON.stringify` of the parsed number would round them;
//! - `-0.0` is written `0`, as `JSON.stringify(-0)` does (the two compare equal).

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

/// serde_json's compact formatter (the trait's defaults), floats as JavaScript writes them.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsFormatter;

impl Formatter for JsFormatter {
    #[inline]
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        // serde_json never hands a non-finite float to a formatter (it writes `null`).
        w.write_all(ryu_js::Buffer::new().format_finite(value).as_bytes())
    }

    #[inline]
    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(w, f64::from(value))
    }
}

/// `serde_json::to_writer`, numbers as JavaScript writes them.
#[inline]
pub fn to_writer<W: io::Write, T: ?Sized + Serialize>(w: W, value: &T) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(w, JsFormatter))
}

/// `serde_json::to_vec`, numbers as JavaScript writes them.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(128);
    to_writer(&mut buf, value)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn written(json: &str) -> String {
        let v: Value = serde_json::from_str(json).expect("json");
        String::from_utf8(to_vec(&v).expect("in memory")).expect("utf8")
    }

    /// Each right-hand side is what node's `JSON.stringify(JSON.parse(left))` prints.
    #[test]
    fn floats_as_json_stringify_writes_them() {
        for (input, js) in [
            ("1.0", "1"),
            ("2000.0", "2000"),
            ("2E3", "2000"),
            ("0.0", "0"),
            ("-0.0", "0"),
            ("-1.5", "-1.5"),
            ("0.1", "0.1"),
            ("0.25", "0.25"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("1e16", "10000000000000000"),
            ("73786976294838206464.0", "73786976294838210000"),
            ("1.5e-7", "1.5e-7"),
            ("1e-6", "0.000001"),
            ("1e-7", "1e-7"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("123456.789", "123456.789"),
        ] {
            assert_eq!(written(input), js, "{input}");
        }
    }

    /// Integers keep every digit; everything but numbers is serde_json's compact form.
    #[test]
    fn integers_and_the_rest_as_serde_json_writes_them() {
        for json in [
            "0",
            "-7",
            "1795994433261",
            "9007199254740993",
            "18446744073709551615",
            "-9223372036854775808",
            r#"{"a":[1,2.5,null,true,"x\"\n\u0001é"],"b":{}}"#,
        ] {
            let v: Value = serde_json::from_str(json).expect("json");
            assert_eq!(written(json), serde_json::to_string(&v).expect("json"));
        }
        assert_eq!(written(r#"{"p":1.0,"n":[3,4.0]}"#), r#"{"p":1,"n":[3,4]}"#);
    }
}
