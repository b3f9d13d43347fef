//! Placeholder text: what a redacted string reads as.
//!
//! Each word (a run of letters and digits) becomes a word of as many characters: a digit
//! becomes `0`, a letter one of `x q z j` (case kept), chosen by a fixed-key hash of the
//! word's characters up to and including it. Everything else (spaces, punctuation, quotes,
//! brackets, emoji) stays. So:
//!
//! - the same text always gives the same placeholder, in any file, on any machine;
//! - the placeholder of a text streamed in pieces, each piece redacted after the one before
//!   ([`Word`] carries the word in progress across pieces), is the placeholder of the whole
//!   text, wherever the pieces split it, even inside a word;
//! - placeholder text is its own placeholder (`x q z j` and `0` map to themselves), so
//!   redacting twice changes nothing. The cost: those four letters and the digit 0 of the
//!   original stay where they were.
//!
//! JSON and Python reprs inside a string ([`Code`]) keep their syntax and keys; only their
//! string values are replaced (and numbers, `true`, `None`… stay).

use super::has;

/// The fixed key of the word hash.
const KEY: u64 = 0x6167_7569_6679_2172;
/// The letters of placeholder words (rare in any language, so what stays of the original is
/// little).
const LETTERS: [char; 4] = ['x', 'q', 'z', 'j'];

/// A word in progress: the hash of its characters so far (`None` between words).
#[derive(Debug, Clone, Copy, Default)]
pub struct Word(Option<u64>);

impl Word {
    /// Writes the placeholder of `c`, the next character of the text.
    pub fn push(&mut self, c: char, out: &mut String) {
        if !c.is_alphanumeric() {
            self.0 = None;
            out.push(c);
            return;
        }
        let h = mix(self.0.unwrap_or(KEY), u64::from(c));
        self.0 = Some(h);
        out.push(letter(c, h));
    }

    /// A boundary that is not a character of the text (an escape, a secret's placeholder).
    pub fn end(&mut self) {
        self.0 = None;
    }
}

fn letter(c: char, h: u64) -> char {
    if c.is_numeric() {
        return '0';
    }
    if LETTERS.contains(&c.to_ascii_lowercase()) {
        return c;
    }
    let l = LETTERS[(finish(h) % LETTERS.len() as u64) as usize];
    if c.is_uppercase() {
        l.to_ascii_uppercase()
    } else {
        l
    }
}

fn mix(h: u64, c: u64) -> u64 {
    (h ^ c).wrapping_mul(0x0100_0000_01b3).rotate_left(29) ^ KEY
}

/// splitmix64's finaliser: every bit of the word so far moves the letter.
fn finish(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plain text, one piece after another.
pub fn text(s: &str, word: &mut Word, out: &mut String) {
    for c in s.chars() {
        word.push(c, out);
    }
}

/// Words an error message keeps: those the RUN_ERROR code is read from (src/mapper/
/// error_code.rs), so that `convert` and `explain` of the redacted log name the same cause.
const ERROR_WORDS: &str = include_str!("words/error-words.txt");

/// An error message: its words as [`text`] does, but a leading class name (`ValueError:`),
/// numbers and the words the error's code is read from stay.
pub fn error(s: &str, out: &mut String) {
    let name = s.split_once(':').filter(|(n, _)| is_class_name(n));
    let name = name.map_or("", |(n, _)| n);
    out.push_str(name);
    let mut rest = &s[name.len()..];
    // Runs of word characters and of the rest, in turn.
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    while let Some(first) = rest.chars().next() {
        let in_word = is_word(first);
        let len = rest.find(|c| is_word(c) != in_word).unwrap_or(rest.len());
        let w = &rest[..len];
        let kept =
            has(ERROR_WORDS, &w.to_ascii_lowercase()) || w.bytes().all(|b| b.is_ascii_digit());
        if in_word && !kept {
            text(w, &mut Word::default(), out);
        } else {
            out.push_str(w);
        }
        rest = &rest[len..];
    }
}

/// `ValueError`, `openai.RateLimitError`, `GraphInterrupt`: one token, no spaces, starting
/// with a capital or a module path.
pub fn is_class_name(s: &str) -> bool {
    let last = s.rsplit('.').next().unwrap_or(s);
    !s.is_empty()
        && s.len() <= 80
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && last.starts_with(|c: char| c.is_ascii_uppercase())
}

/// JSON or a Python repr, read one character at a time: keys (and, with `keep_keys`, the values
/// of [`super::walk::KEEP`] keys such as `type` and `id`) stay, other string values become
/// placeholder text. Pieces of one streamed text are read by one `Code` in turn.
#[derive(Debug, Clone, Default)]
pub struct Code {
    keep_keys: bool,
    /// Open containers, `true` for an object (`[` and `(` are `false`).
    stack: Vec<bool>,
    expect_key: bool,
    /// The quote of the string literal being read.
    quote: Option<char>,
    literal_kept: bool,
    literal_is_key: bool,
    /// The escape being read in a literal: its text so far (`\`, `\u00`…).
    escape: Option<String>,
    /// The last key (or keyword argument) read, and the one being read.
    key: String,
    reading: String,
    /// The identifier being read outside literals (a keyword argument's name).
    ident: String,
    word: Word,
}

impl Code {
    pub fn new(keep_keys: bool) -> Self {
        Code {
            keep_keys,
            ..Code::default()
        }
    }

    pub fn push_str(&mut self, s: &str, out: &mut String) {
        for c in s.chars() {
            self.push(c, out);
        }
    }

    /// A secret's placeholder, written as it is.
    pub fn verbatim(&mut self, s: &str, out: &mut String) {
        out.push_str(s);
        self.word.end();
    }

    fn push(&mut self, c: char, out: &mut String) {
        let Some(quote) = self.quote else {
            return self.outside(c, out);
        };
        if let Some(mut raw) = self.escape.take() {
            raw.push(c);
            // `\uXXXX` and `\xXX` are read whole; any other escape is its two characters.
            let want = match raw.chars().nth(1) {
                Some('u') => 6,
                Some('x') => 4,
                _ => 0,
            };
            if raw.len() < want && (raw.len() == 2 || c.is_ascii_hexdigit()) {
                self.escape = Some(raw);
            } else {
                self.escaped(&raw, out);
            }
            return;
        }
        match c {
            '\\' => self.escape = Some(String::from("\\")),
            _ if c == quote => {
                self.quote = None;
                self.word.end();
                if self.literal_is_key {
                    self.key = std::mem::take(&mut self.reading);
                }
                out.push(c);
            }
            _ => {
                if self.literal_is_key && self.reading.len() < 64 {
                    self.reading.push(c);
                }
                if self.literal_kept {
                    out.push(c);
                } else {
                    self.word.push(c, out);
                }
            }
        }
    }

    /// Whether `c` continues a number (`1e5`) or `true`, `false`, `null`, as JSON has
    /// outside strings.
    fn literal_word(&self, c: char) -> bool {
        let prefix = |l: &str| {
            l.strip_prefix(self.ident.as_str())
                .is_some_and(|r| r.starts_with(c))
        };
        self.ident.starts_with(|d: char| d.is_ascii_digit())
            || ["true", "false", "null"].into_iter().any(prefix)
    }

    /// An escape: a letter or digit a `\uXXXX` (`\xXX`) stands for is replaced like one
    /// written as it is; anything else stays escaped.
    fn escaped(&mut self, raw: &str, out: &mut String) {
        let decoded = raw
            .get(2..)
            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
            .filter(|_| raw.len() >= 4)
            .and_then(char::from_u32);
        match decoded {
            Some(ch) if ch.is_alphanumeric() && !self.literal_kept => self.word.push(ch, out),
            _ => {
                out.push_str(raw);
                self.word.end();
            }
        }
    }

    fn outside(&mut self, c: char, out: &mut String) {
        let in_object = self.stack.last() == Some(&true);
        if c.is_alphabetic() && !self.keep_keys && !self.literal_word(c) {
            // Not JSON: a word outside a string is text.
            self.word.push(c, out);
        } else {
            out.push(c);
            if !c.is_alphanumeric() {
                self.word.end();
            }
        }
        match c {
            '"' | '\'' if c == '"' || self.keep_keys => {
                self.quote = Some(c);
                self.literal_is_key = in_object && self.expect_key;
                self.literal_kept =
                    self.literal_is_key || (self.keep_keys && has(super::walk::KEEP, &self.key));
                self.reading.clear();
                self.word.end();
            }
            '{' => {
                self.stack.push(true);
                self.expect_key = true;
            }
            '[' | '(' => self.stack.push(false),
            '}' | ']' | ')' => {
                self.stack.pop();
                self.expect_key = false;
            }
            ':' if in_object => self.expect_key = false,
            ',' if in_object => self.expect_key = true,
            '=' if !self.ident.is_empty() => self.key = std::mem::take(&mut self.ident),
            _ => {}
        }
        if c.is_alphanumeric() || c == '_' {
            if self.ident.len() < 64 {
                self.ident.push(c);
            }
        } else {
            self.ident.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(s: &str) -> String {
        let mut out = String::new();
        text(s, &mut Word::default(), &mut out);
        out
    }

    #[test]
    fn words_keep_their_length_case_and_boundaries() {
        let r = whole("It is sunny and 22°C in Paris.");
        assert_eq!(r.chars().count(), 30);
        let spaces = |t: &str| t.match_indices(' ').map(|(i, _)| i).collect::<Vec<_>>();
        assert_eq!(spaces(&r), spaces("It is sunny and 22°C in Paris."));
        assert!(r.ends_with('.'));
        assert!(r.contains("00°"), "{r}");
        assert!(r.starts_with(|c: char| c.is_ascii_uppercase()), "{r}");
        assert!(!r.contains("Paris") && !r.contains("sunny"), "{r}");
        assert_eq!(whole(&r), r, "placeholder text is its own placeholder");
        assert_eq!(whole("Paris"), whole("Paris"));
        assert_ne!(whole("Paris"), whole("Parks"));
    }

    /// Every split of a text, each piece redacted after the one before, joins into the
    /// placeholder of the whole.
    #[test]
    fn pieces_join_into_the_whole() {
        let s = "Schöne Grüße aus 北京, it's 22°C";
        let want = whole(s);
        for (i, _) in s.char_indices() {
            let mut word = Word::default();
            let mut out = String::new();
            text(&s[..i], &mut word, &mut out);
            text(&s[i..], &mut word, &mut out);
            assert_eq!(out, want, "split at {i}");
        }
    }

    #[test]
    fn json_keeps_keys_and_syntax_and_joins_across_pieces() {
        let s = r#"{"city": "Paris", "n": 2, "tags": ["caf\u00e9", "x\ny"], "ok": true}"#;
        let mut out = String::new();
        Code::new(false).push_str(s, &mut out);
        let v: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
        assert_eq!(v["n"], 2);
        assert_eq!(v["ok"], true);
        assert_eq!(v["city"].as_str(), Some(whole("Paris").as_str()));
        assert_eq!(v["tags"][0].as_str(), Some(whole("café").as_str()));
        for (i, _) in s.char_indices() {
            let mut code = Code::new(false);
            let mut piecewise = String::new();
            code.push_str(&s[..i], &mut piecewise);
            code.push_str(&s[i..], &mut piecewise);
            assert_eq!(piecewise, out, "split at {i}");
        }
        let mut again = String::new();
        Code::new(false).push_str(&out, &mut again);
        assert_eq!(again, out);
    }

    #[test]
    fn a_repr_keeps_ids_and_types() {
        let s =
            "(Interrupt(value={'type': 'approval', 'message': 'Approve order?'}, id='9298d9b0'),)";
        let mut out = String::new();
        Code::new(true).push_str(s, &mut out);
        assert!(out.contains("'type': 'approval'"), "{out}");
        assert!(out.contains("id='9298d9b0'"), "{out}");
        assert!(!out.contains("Approve"), "{out}");
    }

    #[test]
    fn error_messages_keep_what_their_code_is_read_from() {
        let mut out = String::new();
        error(
            "GraphRecursionError: Recursion limit of 25 reached for Alice",
            &mut out,
        );
        assert!(out.starts_with("GraphRecursionError: Recursion limit of 25 reached"));
        assert!(!out.contains("Alice"), "{out}");
    }
}
