//! The single pass behind [`super::Masker::mask`]. Rules start only where a word starts (the
//! character before is not an ASCII letter, digit or `_`), each reads a bounded window from there, and a
//! token run is measured once however many rules ask for its end: linear time for any input.

use super::kinds::{Kind, Pattern};

// Reads of the text in tests, to prove the pass linear without timing it.
#[cfg(test)]
thread_local! {
    pub(super) static READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Prefixes of well-known API keys (ours first), each followed by at least [`MIN_KEY_TAIL`] more
/// token characters.
const KEY_PREFIXES: &[&str] = &[
    "svc_",
    "sk-",
    "sk_",
    "rk_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "xapp-",
    "AKIA",
    "ASIA",
    "AIza",
    "hf_",
    "npm_",
    "pypi-",
    "shpat_",
];
const MIN_KEY_TAIL: usize = 8;
/// Letters and digits in a row, both present, that make a token a secret whatever its prefix.
const MIN_RANDOM_STRETCH: usize = 24;
/// Words after which `=` or `:` introduces a secret.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "api-key",
    "access_token",
    "auth_token",
    "client_secret",
    "private_key",
];
/// Longest value read after such a word or after `Bearer`.
const MAX_VALUE: usize = 256;
const MAX_EMAIL_LOCAL: usize = 64;
const MAX_EMAIL_DOMAIN: usize = 253;
/// Characters a phone or card number spans, separators included.
const MAX_NUMBER_SPAN: usize = 40;
const MAX_IPV6: usize = 45;

struct Text<'a> {
    s: &'a str,
    b: &'a [u8],
}

impl Text<'_> {
    /// The byte at `j`, or 0 past the end.
    #[inline]
    fn at(&self, j: usize) -> u8 {
        #[cfg(test)]
        READS.with(|r| r.set(r.get() + 1));
        self.b.get(j).copied().unwrap_or(0)
    }

    /// The character at byte `j` (a char boundary).
    fn char_at(&self, j: usize) -> Option<char> {
        #[cfg(test)]
        READS.with(|r| r.set(r.get() + 1));
        self.s.get(j..)?.chars().next()
    }

    /// An ASCII letter, digit or `_` at `j`. Only those join a match to its neighbours: text in
    /// scripts without spaces ("IP是203.0.113.7") still has its data found.
    fn is_word_at(&self, j: usize) -> bool {
        is_word(self.at(j))
    }

    /// A rule may start at `j`: the character before is not part of a word.
    fn starts_word(&self, j: usize) -> bool {
        j == 0 || !is_word(self.at(j - 1))
    }

    /// Where the token run (letters, digits, `_`, `-`) from `j` ends, reading at most `max` bytes.
    fn run_end(&self, j: usize, max: usize) -> usize {
        let mut k = j;
        while k < self.b.len() && k - j < max && is_run(self.at(k)) {
            k += 1;
        }
        k
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_run(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn char_len(lead: u8) -> usize {
    match lead {
        0..=0x7f => 1,
        0xf0.. => 4,
        0xe0.. => 3,
        _ => 2,
    }
}

/// The token run the pass is in: measured once, and its random-stretch test made once (a later
/// start inside the run sees a suffix, which passes only if the whole did).
struct Run {
    end: usize,
    random_tested: bool,
}

/// Calls `found(start, end, kind)` for every match, in order, none overlapping.
pub(super) fn scan(s: &str, patterns: &[Pattern], mut found: impl FnMut(usize, usize, Kind)) {
    let t = Text { s, b: s.as_bytes() };
    let mut run = Run {
        end: 0,
        random_tested: false,
    };
    let mut i = 0;
    while i < t.b.len() {
        let c = t.at(i);
        if is_run(c) && i >= run.end {
            run = Run {
                end: t.run_end(i, usize::MAX),
                random_tested: false,
            };
        }
        let may_start = c.is_ascii_alphanumeric() || matches!(c, b'+' | b'(' | b':') || c >= 0x80;
        if may_start && t.starts_word(i) {
            if let Some((start, end, kind)) = detect(&t, i, patterns, &mut run) {
                found(start, end, kind);
                i = end;
                continue;
            }
        }
        i += char_len(c);
    }
}

fn detect(
    t: &Text<'_>,
    i: usize,
    patterns: &[Pattern],
    run: &mut Run,
) -> Option<(usize, usize, Kind)> {
    let c = t.at(i);
    let whole = |end: Option<usize>, kind| end.map(|end| (i, end, kind));
    if c >= 0x80 {
        return whole(email(t, i), Kind::Email);
    }
    if matches!(c, b'+' | b'(') {
        return number(t, i);
    }
    if c == b':' {
        return whole(ipv6(t, i), Kind::Ip);
    }
    if let Some(end) = patterns.iter().find_map(|p| custom(t, i, p, run.end)) {
        return Some((i, end, Kind::Custom));
    }
    if c.is_ascii_alphabetic() {
        if let Some(value) = secret_after_word(t, i) {
            return Some(value);
        }
    }
    if let Some(end) = email(t, i) {
        return Some((i, end, Kind::Email));
    }
    if let Some(end) = iban(t, i) {
        return Some((i, end, Kind::Iban));
    }
    if key(t, i, run) {
        return Some((i, run.end, Kind::Secret));
    }
    if c.is_ascii_hexdigit() {
        if let Some(end) = ipv6(t, i) {
            return Some((i, end, Kind::Ip));
        }
    }
    if c.is_ascii_digit() {
        if let Some(end) = ipv4(t, i) {
            return Some((i, end, Kind::Ip));
        }
        return number(t, i);
    }
    None
}

/// An operator's pattern at `i`; `run_end` is where the token run holding `i` ends.
fn custom(t: &Text<'_>, i: usize, p: &Pattern, run_end: usize) -> Option<usize> {
    let mut j = i;
    for &want in &p.fixed {
        let c = t.at(j);
        let ok = if want == b'#' {
            c.is_ascii_digit()
        } else {
            c != 0 && c.to_ascii_lowercase() == want
        };
        if !ok {
            return None;
        }
        j += 1;
    }
    if p.tail {
        if !is_run(t.at(j)) {
            return None;
        }
        j = if j < run_end {
            run_end
        } else {
            t.run_end(j, MAX_VALUE)
        };
    }
    (!t.is_word_at(j)).then_some(j)
}

/// `Bearer <token>`, or `password=…` and its kin: the value alone is masked.
fn secret_after_word(t: &Text<'_>, i: usize) -> Option<(usize, usize, Kind)> {
    let mut j = i;
    while j - i < 16 && (t.at(j).is_ascii_alphabetic() || matches!(t.at(j), b'_' | b'-')) {
        j += 1;
    }
    let word = t.s[i..j].to_ascii_lowercase();
    let bearer = word == "bearer";
    if !bearer && !SECRET_WORDS.contains(&word.as_str()) {
        return None;
    }
    let spaces = |mut k: usize| {
        let from = k;
        while k - from < 3 && t.at(k) == b' ' {
            k += 1;
        }
        k
    };
    let mut k = spaces(j);
    let mut strict = false;
    if !bearer {
        match t.at(k) {
            b'=' => {}
            b':' => strict = true,
            _ => return None,
        }
        k = spaces(k + 1);
        if matches!(t.at(k), b'"' | b'\'') {
            k += 1;
        }
    } else if k == j {
        return None;
    }
    let start = k;
    let token_char = |c: u8| c.is_ascii_alphanumeric() || b"._~+/=-!@#$%^&*".contains(&c);
    while k - start < MAX_VALUE && token_char(t.at(k)) {
        k += 1;
    }
    while k > start && t.at(k - 1) == b'.' {
        k -= 1;
    }
    let value = &t.b[start..k];
    let long_enough = value.len() >= if bearer { 8 } else { 4 };
    // After `:` (prose: "token: what is it?") only a value with a digit or a symbol is a secret.
    let secret_like = !strict || value.iter().any(|c| !c.is_ascii_alphabetic());
    (long_enough && secret_like).then_some((start, k, Kind::Secret))
}

fn email(t: &Text<'_>, i: usize) -> Option<usize> {
    let mut j = i;
    let mut chars = 0;
    loop {
        let c = t.char_at(j)?;
        if c == '@' {
            break;
        }
        if !(c.is_alphanumeric() || "._%+-".contains(c)) {
            return None;
        }
        chars += 1;
        if chars > MAX_EMAIL_LOCAL {
            return None;
        }
        j += c.len_utf8();
    }
    if j == i || t.at(j - 1) == b'.' {
        return None;
    }
    let from = j + 1;
    let mut k = from;
    while k - from < MAX_EMAIL_DOMAIN {
        match t.char_at(k) {
            Some(c) if c.is_alphanumeric() || c == '-' || c == '.' => k += c.len_utf8(),
            _ => break,
        }
    }
    let domain = t.s[from..k].trim_end_matches(['.', '-']);
    let mut labels = 0;
    for label in domain.split('.') {
        if label.is_empty() {
            return None;
        }
        labels += 1;
    }
    let tld = domain.rsplit('.').next().unwrap_or_default();
    (labels >= 2 && tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
        .then_some(from + domain.len())
}

/// Two letters, two check digits, then 11 to 30 letters and digits, whole or in groups of four
/// split by single spaces; the mod-97 check decides.
fn iban(t: &Text<'_>, i: usize) -> Option<usize> {
    let (a, b, c, d) = (t.at(i), t.at(i + 1), t.at(i + 2), t.at(i + 3));
    if !(a.is_ascii_alphabetic()
        && b.is_ascii_alphabetic()
        && c.is_ascii_digit()
        && d.is_ascii_digit())
    {
        return None;
    }
    let mut chars: Vec<u8> = Vec::with_capacity(34);
    // (characters so far, where that group ends), one entry per group.
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut j = i;
    loop {
        let from = j;
        while t.at(j).is_ascii_alphanumeric() && chars.len() < 35 {
            chars.push(t.at(j).to_ascii_uppercase());
            j += 1;
        }
        let len = j - from;
        if len == 0 || t.is_word_at(j) {
            break;
        }
        ends.push((chars.len(), j));
        // Grouped: four at a time, and only a full group is followed by another.
        if len != 4 || t.at(j) != b' ' || !t.at(j + 1).is_ascii_alphanumeric() || ends.len() > 9 {
            break;
        }
        j += 1;
    }
    ends.iter()
        .rev()
        .find(|(n, _)| (15..=34).contains(n) && mod97(&chars[..*n]) == 1)
        .map(|(_, end)| *end)
}

fn mod97(chars: &[u8]) -> u32 {
    let mut rem = 0u32;
    for &c in chars[4..].iter().chain(&chars[..4]) {
        rem = match c {
            b'0'..=b'9' => (rem * 10 + u32::from(c - b'0')) % 97,
            _ => (rem * 100 + u32::from(c - b'A') + 10) % 97,
        };
    }
    rem
}

/// A key by its prefix, or a token with a long random-looking stretch of letters and digits.
fn key(t: &Text<'_>, i: usize, run: &mut Run) -> bool {
    if !is_run(t.at(i)) {
        return false;
    }
    let word = &t.s[i..run.end];
    if KEY_PREFIXES
        .iter()
        .any(|p| word.len() >= p.len() + MIN_KEY_TAIL && word.starts_with(p))
    {
        return true;
    }
    if run.random_tested {
        return false;
    }
    run.random_tested = true;
    let (mut stretch, mut digits, mut letters) = (0, false, false);
    for j in i..run.end {
        let c = t.at(j);
        if c.is_ascii_alphanumeric() {
            stretch += 1;
            digits |= c.is_ascii_digit();
            letters |= c.is_ascii_alphabetic();
            if stretch >= MIN_RANDOM_STRETCH && digits && letters {
                return true;
            }
        } else {
            (stretch, digits, letters) = (0, false, false);
        }
    }
    false
}

fn ipv4(t: &Text<'_>, i: usize) -> Option<usize> {
    if i > 0 && t.at(i - 1) == b'.' {
        return None;
    }
    let mut j = i;
    for octet in 0..4 {
        if octet > 0 {
            if t.at(j) != b'.' {
                return None;
            }
            j += 1;
        }
        let from = j;
        let mut value = 0u32;
        while j - from < 3 && t.at(j).is_ascii_digit() {
            value = value * 10 + u32::from(t.at(j) - b'0');
            j += 1;
        }
        if j == from || value > 255 {
            return None;
        }
    }
    let next = t.at(j);
    let more = next.is_ascii_alphanumeric() || (next == b'.' && t.at(j + 1).is_ascii_digit());
    (!more && !t.is_word_at(j)).then_some(j)
}

/// Hex groups split by `:`: eight of them, or fewer with one `::`; the last may be an IPv4 address.
fn ipv6(t: &Text<'_>, i: usize) -> Option<usize> {
    let mut j = i;
    while j - i <= MAX_IPV6 && (t.at(j).is_ascii_hexdigit() || matches!(t.at(j), b':' | b'.')) {
        j += 1;
    }
    if j - i > MAX_IPV6 || t.is_word_at(j) {
        return None;
    }
    let text = t.s[i..j].trim_end_matches('.');
    let compressed = text.matches("::").count();
    if compressed > 1 || text.contains(":::") || text.matches(':').count() < 2 {
        return None;
    }
    let parts: Vec<&str> = text.split(':').filter(|p| !p.is_empty()).collect();
    let (last, groups) = parts.split_last()?;
    let tail_v4 = last.contains('.');
    if tail_v4
        && ipv4(
            &Text {
                s: last,
                b: last.as_bytes(),
            },
            0,
        ) != Some(last.len())
    {
        return None;
    }
    let hex = |g: &&str| (1..=4).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_hexdigit());
    if !groups.iter().all(hex) || (!tail_v4 && !hex(last)) {
        return None;
    }
    let count = groups.len() + 1 + usize::from(tail_v4);
    let fits = if compressed == 1 {
        count <= 7
    } else {
        count == 8
    };
    fits.then_some(i + text.len())
}

/// Digits with separators (space, `-`, `.`, parentheses) from `i`: a card number when 12 to 19
/// digits pass the Luhn check, else a phone number when it has the shape of one.
fn number(t: &Text<'_>, i: usize) -> Option<(usize, usize, Kind)> {
    // Not the decimals of a number ("3.14159…") nor the tail of a hyphenated id ("…-426614174000").
    let before = if i > 0 { t.at(i - 1) } else { 0 };
    if before == b'.' || (matches!(before, b'-' | b'_') && i > 1 && is_word(t.at(i - 2))) {
        return None;
    }
    let plus = t.at(i) == b'+';
    let mut j = i + usize::from(plus);
    let mut digits: Vec<u8> = Vec::with_capacity(20);
    let mut groups: Vec<(usize, u8)> = Vec::new(); // (length, the separator after it; 0 at the end)
    let (mut group, mut seps, mut end) = (0, 0, i);
    while j - i < MAX_NUMBER_SPAN {
        let c = t.at(j);
        if c.is_ascii_digit() {
            digits.push(c - b'0');
            group += 1;
            seps = 0;
            end = j + 1;
        } else if matches!(c, b' ' | b'-' | b'.' | b'(' | b')') {
            if group > 0 {
                groups.push((group, c));
            }
            group = 0;
            seps += 1;
            if seps > 2 {
                break;
            }
        } else {
            break;
        }
        j += 1;
    }
    if group > 0 {
        groups.push((group, 0));
    }
    if digits.is_empty() || t.is_word_at(end) {
        return None;
    }
    // Only the separators inside the number count.
    if let Some(last) = groups.last_mut() {
        last.1 = 0;
    }
    let inner: Vec<u8> = groups.iter().map(|g| g.1).filter(|&s| s != 0).collect();
    let card_shape =
        inner.iter().all(|s| matches!(s, b' ' | b'-')) && groups.iter().all(|g| g.0 >= 3);
    if !plus && (12..=19).contains(&digits.len()) && card_shape && luhn(&digits) {
        return Some((i, end, Kind::Card));
    }
    let n = digits.len();
    let phone = if plus {
        (8..=15).contains(&n)
    } else {
        let first = groups[0];
        let year_first = first.0 == 4 && matches!(first.1, b'-' | b'.');
        let dotted = inner.contains(&b'.');
        let groups_ok = groups
            .iter()
            .enumerate()
            .all(|(k, g)| g.0 >= 2 || (k == 0 && matches!(g.1, b' ' | b'-' | b')')));
        // Unbroken, 13 digits and more are ids and millisecond times rather than phone numbers.
        let most = if groups.len() == 1 { 12 } else { 15 };
        (10..=most).contains(&n) && groups_ok && !year_first && (!dotted || groups.len() >= 3)
    };
    phone.then_some((i, end, Kind::Phone))
}

fn luhn(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(k, &d)| {
            let d = u32::from(d);
            if k % 2 == 1 {
                if d * 2 > 9 {
                    d * 2 - 9
                } else {
                    d * 2
                }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}
