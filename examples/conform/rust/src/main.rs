//! The span-ledger range-algebra suite in Rust, standard library only: a
//! small JSON reader and writer, line spans as sorted disjoint `(start, end)`
//! pairs, and the conformance protocol's loop (docs/conformance.md).
//!
//!     cargo run --offline --release -q --manifest-path examples/conform/rust/Cargo.toml

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }
    fn is_missing(&self) -> bool {
        matches!(self, Json::Null)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let k = match self.value()? {
                        Json::Str(k) => k,
                        _ => return Err("object key".into()),
                    };
                    self.ws();
                    self.expect(b':')?;
                    let v = self.value()?;
                    m.insert(k, v);
                    self.ws();
                    match self.next()? {
                        b',' => continue,
                        b'}' => return Ok(Json::Obj(m)),
                        _ => return Err("object".into()),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    match self.next()? {
                        b',' => continue,
                        b']' => return Ok(Json::Arr(v)),
                        _ => return Err("array".into()),
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    match self.next()? {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => match self.next()? {
                            b'n' => out.push('\n'),
                            b't' => out.push('\t'),
                            b'r' => out.push('\r'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'u' => {
                                let hex = std::str::from_utf8(self.s.get(self.i..self.i + 4).ok_or("escape")?)
                                    .map_err(|_| "escape")?;
                                self.i += 4;
                                let code = u32::from_str_radix(hex, 16).map_err(|_| "escape")?;
                                // Lone surrogates never reach the algebra suite: U+FFFD stands in.
                                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                            }
                            c => out.push(c as char),
                        },
                        c if c < 0x80 => out.push(c as char),
                        _ => {
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(std::str::from_utf8(&self.s[start..end]).map_err(|_| "utf-8")?);
                            self.i = end;
                        }
                    }
                }
            }
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(_) => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).map_err(|_| "number")?;
                text.parse::<f64>().map(Json::Num).map_err(|_| format!("number {text:?}"))
            }
            None => Err("end of input".into()),
        }
    }
    fn next(&mut self) -> Result<u8, String> {
        let c = *self.s.get(self.i).ok_or("end of input")?;
        self.i += 1;
        Ok(c)
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.next()? == c { Ok(()) } else { Err(format!("expected {:?}", c as char)) }
    }
    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err("literal".into())
        }
    }
}

fn write(j: &Json, out: &mut String) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Num(n) => out.push_str(&format!("{}", n)),
        Json::Str(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Json::Arr(v) => {
            out.push('[');
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(x, out);
            }
            out.push(']');
        }
        Json::Obj(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(&Json::Str(k.clone()), out);
                out.push(':');
                write(v, out);
            }
            out.push('}');
        }
    }
}

// ---- the algebra ------------------------------------------------------------

type Span = (u64, u64);

fn line(j: &Json) -> Option<u64> {
    match j {
        Json::Num(n) if n.fract() == 0.0 && *n >= 1.0 && *n <= MAX_SAFE => Some(*n as u64),
        _ => None,
    }
}

fn span(j: &Json) -> Option<Span> {
    if !matches!(j, Json::Obj(_)) {
        return None;
    }
    match (line(j.get("start")), line(j.get("end"))) {
        (Some(s), Some(e)) if s <= e => Some((s, e)),
        _ => None,
    }
}

fn spans(j: &Json) -> Vec<Span> {
    match j {
        Json::Arr(v) => v.iter().filter_map(span).collect(),
        _ => Vec::new(),
    }
}

fn merge(mut v: Vec<Span>) -> Vec<Span> {
    v.sort();
    let mut out: Vec<Span> = Vec::new();
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 + 1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

fn intersect(a: &[Span], b: &[Span]) -> Vec<Span> {
    let (a, b) = (merge(a.to_vec()), merge(b.to_vec()));
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (s, e) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if s <= e {
            out.push((s, e));
        }
        if a[i].1 < b[j].1 { i += 1 } else { j += 1 }
    }
    merge(out)
}

fn subtract(a: &[Span], b: &[Span]) -> Vec<Span> {
    let b = merge(b.to_vec());
    let mut out = Vec::new();
    for (mut s, e) in merge(a.to_vec()) {
        for &(bs, be) in &b {
            if be < s || bs > e {
                continue;
            }
            if bs > s {
                out.push((s, bs - 1));
            }
            s = be + 1;
            if s > e {
                break;
            }
        }
        if s <= e {
            out.push((s, e));
        }
    }
    out
}

fn to_json(v: &[Span]) -> Json {
    Json::Arr(
        v.iter()
            .map(|&(s, e)| {
                let mut m = BTreeMap::new();
                m.insert("start".into(), Json::Num(s as f64));
                m.insert("end".into(), Json::Num(e as f64));
                Json::Obj(m)
            })
            .collect(),
    )
}

fn size(s: &Span) -> u64 {
    s.1 - s.0 + 1
}

/// A count argument: a non-negative safe integer, else `fallback` when absent, else `bad`.
fn count_arg(j: &Json, fallback: usize, bad: usize) -> usize {
    match j {
        Json::Null => fallback,
        Json::Num(n) if n.fract() == 0.0 && *n >= 0.0 && *n <= MAX_SAFE => *n as usize,
        _ => bad,
    }
}

fn format_spans(v: &[Span], max: usize) -> String {
    let shown = v.len().min(max);
    let mut parts: Vec<String> = v[..shown]
        .iter()
        .map(|&(s, e)| if s == e { format!("L{s}") } else { format!("L{s}-{e}") })
        .collect();
    let rest = v.len() - shown;
    if rest > 0 {
        parts.push(format!("+{rest} more {}", if rest == 1 { "span" } else { "spans" }));
    }
    parts.join(", ")
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn algebra(op: &str, input: &Json) -> Option<Json> {
    let set = |k: &str| spans(input.get(k));
    let one = || span(input.get("range")).into_iter().collect::<Vec<_>>();
    Some(match op {
        "isLineRange" => Json::Bool(span(input.get("range")).is_some()),
        "merge" => to_json(&merge(set("ranges"))),
        "intersect" => to_json(&intersect(&set("a"), &set("b"))),
        "intersectRange" => to_json(&intersect(&one(), &set("set"))),
        "subtract" => to_json(&subtract(&set("a"), &set("b"))),
        "subtractRange" => to_json(&subtract(&one(), &set("set"))),
        "dedupe" => {
            let r = one();
            let min = match input.get("minCovered") {
                Json::Null => Some(8.0),
                Json::Num(n) => Some(n.max(1.0)),
                _ => None,
            };
            let covered: Vec<Span> = intersect(&r, &set("served"))
                .into_iter()
                .filter(|s| min.map_or(false, |m| size(s) as f64 >= m))
                .collect();
            obj(vec![("emit", to_json(&subtract(&r, &covered))), ("covered", to_json(&covered))])
        }
        "coalesce" => {
            let runs = merge(set("ranges"));
            let keep = count_arg(input.get("max"), 24, 0);
            if runs.len() <= keep {
                obj(vec![("ranges", to_json(&runs)), ("truncated", Json::Bool(false))])
            } else {
                let mut by_size = runs.clone();
                by_size.sort_by(|a, b| size(b).cmp(&size(a)).then(a.0.cmp(&b.0)));
                let mut kept: Vec<Span> = by_size.into_iter().take(keep).collect();
                kept.sort();
                obj(vec![("ranges", to_json(&kept)), ("truncated", Json::Bool(true))])
            }
        }
        "cover" => {
            let l = line(input.get("line"));
            Json::Bool(l.map_or(false, |l| set("ranges").iter().any(|&(s, e)| s <= l && l <= e)))
        }
        "count" => Json::Num(merge(set("ranges")).iter().map(size).sum::<u64>() as f64),
        "formatSpans" => Json::Str(format_spans(&merge(set("ranges")), count_arg(input.get("max"), 4, 4))),
        _ => return None,
    })
}

fn answer(line: &str) -> Json {
    let request = Parser { s: line.as_bytes(), i: 0 }.value().unwrap_or(Json::Null);
    let id = request.get("id").clone();
    let op = match request.get("op") {
        Json::Str(s) => s.clone(),
        _ => String::new(),
    };
    let suite = request.get("suite");
    let body = if op == "hello" {
        (
            "output",
            obj(vec![
                ("protocol", Json::Num(1.0)),
                ("suites", Json::Arr(vec![Json::Str("algebra".into())])),
                ("name", Json::Str("span-ledger algebra (Rust, std only)".into())),
            ]),
        )
    } else {
        let out = if *suite == Json::Str("algebra".into()) { algebra(&op, request.get("input")) } else { None };
        match out {
            Some(o) => ("output", o),
            None => ("error", obj(vec![("code", Json::Str("unsupported".into()))])),
        }
    };
    let _ = request.get("input").is_missing();
    obj(vec![("id", id), body])
}

fn main() {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut out = String::new();
        write(&answer(&line), &mut out);
        out.push('\n');
        if stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush()).is_err() {
            break;
        }
    }
}
