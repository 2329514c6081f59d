//! A strict little JSON reader for the tests that check the binary's JSON output (the review
//! report, the `solve` stream): RFC 8259 with no extensions, and accessors that panic with
//! the offending value, so a test reads `json.get("score").number()`.

use std::collections::BTreeMap;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    /// The field `key` of an object, if it has it.
    pub fn field(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.get(key),
            _ => panic!("not an object: {self:?}"),
        }
    }

    /// The keys of an object, sorted.
    pub fn keys(&self) -> Vec<&str> {
        match self {
            Json::Object(map) => map.keys().map(String::as_str).collect(),
            _ => panic!("not an object: {self:?}"),
        }
    }

    pub fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            _ => panic!("not a boolean: {self:?}"),
        }
    }

    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map.get(key).unwrap_or_else(|| panic!("no field {key:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }

    pub fn number(&self) -> f64 {
        match self {
            Json::Number(x) => *x,
            _ => panic!("not a number: {self:?}"),
        }
    }

    pub fn str(&self) -> &str {
        match self {
            Json::String(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }

    pub fn array(&self) -> &[Json] {
        match self {
            Json::Array(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }
}

/// A strict little JSON parser (RFC 8259, no extensions): the whole text must be one value.
pub fn parse_json(text: &str) -> Result<Json, String> {
    struct P<'a> {
        s: &'a [u8],
        i: usize,
    }
    impl P<'_> {
        fn ws(&mut self) {
            while self.i < self.s.len() && b" \t\n\r".contains(&self.s[self.i]) {
                self.i += 1;
            }
        }
        fn eat(&mut self, b: u8) -> Result<(), String> {
            self.ws();
            if self.s.get(self.i) == Some(&b) {
                self.i += 1;
                Ok(())
            } else {
                Err(format!("expected {:?} at {}", b as char, self.i))
            }
        }
        fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
            if self.s[self.i..].starts_with(word.as_bytes()) {
                self.i += word.len();
                Ok(value)
            } else {
                Err(format!("bad literal at {}", self.i))
            }
        }
        fn string(&mut self) -> Result<String, String> {
            self.eat(b'"')?;
            let mut out = Vec::new();
            loop {
                let b = *self.s.get(self.i).ok_or("unterminated string")?;
                self.i += 1;
                match b {
                    b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                    b'\\' => {
                        let e = *self.s.get(self.i).ok_or("bad escape")?;
                        self.i += 1;
                        let c = match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'u' => {
                                let hex = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                    .map_err(|e| e.to_string())?;
                                self.i += 4;
                                char::from_u32(
                                    u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?,
                                )
                                .ok_or("bad \\u")?
                            }
                            _ => return Err(format!("bad escape at {}", self.i)),
                        };
                        out.extend(c.to_string().bytes());
                    }
                    b if b < 0x20 => return Err(format!("raw control character at {}", self.i)),
                    b => out.push(b),
                }
            }
        }
        fn value(&mut self) -> Result<Json, String> {
            self.ws();
            match self.s.get(self.i).copied().ok_or("unexpected end")? {
                b'n' => self.literal("null", Json::Null),
                b't' => self.literal("true", Json::Bool(true)),
                b'f' => self.literal("false", Json::Bool(false)),
                b'"' => self.string().map(Json::String),
                b'[' => {
                    self.i += 1;
                    let mut items = Vec::new();
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        self.i += 1;
                        return Ok(Json::Array(items));
                    }
                    loop {
                        items.push(self.value()?);
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                return Ok(Json::Array(items));
                            }
                            _ => return Err(format!("bad array at {}", self.i)),
                        }
                    }
                }
                b'{' => {
                    self.i += 1;
                    let mut map = BTreeMap::new();
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        return Ok(Json::Object(map));
                    }
                    loop {
                        let key = self.string()?;
                        self.eat(b':')?;
                        let value = self.value()?;
                        if map.insert(key.clone(), value).is_some() {
                            return Err(format!("duplicate key {key}"));
                        }
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                return Ok(Json::Object(map));
                            }
                            _ => return Err(format!("bad object at {}", self.i)),
                        }
                    }
                }
                _ => {
                    let start = self.i;
                    while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                        self.i += 1;
                    }
                    let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                    let valid = !text.starts_with('+')
                        && !text.ends_with('.')
                        && !text.starts_with('.')
                        && !text.starts_with("-.");
                    match text.parse::<f64>() {
                        Ok(x) if valid => Ok(Json::Number(x)),
                        _ => Err(format!("bad number {text:?} at {start}")),
                    }
                }
            }
        }
    }
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != text.len() {
        return Err(format!("trailing text at {}", p.i));
    }
    Ok(v)
}
