use super::scan::READS;
use super::*;

fn mask(text: &str) -> String {
    Masker::default().mask(text).into_text()
}

#[track_caller]
fn masks(cases: &[(&str, &str)]) {
    for (text, expected) in cases {
        assert_eq!(mask(text), *expected, "masking {text:?}");
    }
}

#[track_caller]
fn keeps(texts: &[&str]) {
    for text in texts {
        assert_eq!(mask(text), *text, "nothing to mask in {text:?}");
    }
}

#[test]
fn emails() {
    masks(&[
        (
            "write to jane.doe+docs@example.co.uk please",
            "write to [email] please",
        ),
        ("<a.b@c.io>.", "<[email]>."),
        ("josé@exämple.de ist meine", "[email] ist meine"),
        ("mail: ADMIN@Example.COM, thanks", "mail: [email], thanks"),
    ]);
    keeps(&[
        "user@localhost",
        "@mention",
        "a@b.c",
        "an @ sign",
        "x@.com",
        "decorators like @app.route",
    ]);
}

#[test]
fn phone_numbers() {
    masks(&[
        ("call +1 (415) 555-0100 now", "call [phone] now"),
        ("+44 20 7946 0958", "[phone]"),
        ("(415) 555-0100", "[phone]"),
        ("1-800-555-0199", "[phone]"),
        ("06 12 34 56 78", "[phone]"),
        ("415.555.0100", "[phone]"),
        ("tel:+33612345678", "tel:[phone]"),
        ("4155550100", "[phone]"),
    ]);
    keeps(&[
        "version 1.2.3",
        "error 404 and 500",
        "on 2024-01-15 10:30",
        "2024.01.15",
        "pi is 3.14159265358",
        "port 8080",
        "+123",
        "up to 100000 requests",
        "0.5 seconds",
    ]);
}

/// Card numbers pass the Luhn check, IBANs the mod-97 check: one character off is neither.
#[test]
fn checksummed_numbers() {
    masks(&[
        ("card 4111 1111 1111 1111 expired", "card [card] expired"),
        ("4111-1111-1111-1111", "[card]"),
        ("5500005555555559", "[card]"),
        ("amex 3782 822463 10005", "amex [card]"),
        ("pay DE89 3704 0044 0532 0130 00 today", "pay [iban] today"),
        ("GB82WEST12345698765432", "[iban]"),
        ("gb82 west 1234 5698 7654 32", "[iban]"),
        (
            "FR14 2004 1010 0505 0001 3M02 606 is mine",
            "[iban] is mine",
        ),
    ]);
    // Not cards, nor phones (16 and 13 digits); a mistyped IBAN's digits may still read as a phone.
    keeps(&[
        "id 5500005555555558",
        "at 1700000000000 ms",
        "GB82WEST12345698765433",
        "AB12 and more",
    ]);
    assert!(!mask("order 4111 1111 1111 1112").contains("[card]"));
    assert!(!mask("DE89 3704 0044 0532 0130 01").contains("[iban]"));
}

#[test]
fn keys_and_tokens() {
    let ours = format!("svc_{}", "a1".repeat(16));
    let public = format!("svc_dsc_{}", "9f".repeat(16));
    masks(&[
        (&format!("my key {ours} fails"), "my key [secret] fails"),
        (&format!("key={public}"), "key=[secret]"),
        ("sk-proj-abcdefghijklmnop", "[secret]"),
        ("ghp_0123456789abcdefghij", "[secret]"),
        ("AKIAIOSFODNN7EXAMPLE", "[secret]"),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc",
            "Authorization: Bearer [secret]",
        ),
        (
            "curl -H 'authorization: bearer abc.def-123456'",
            "curl -H 'authorization: bearer [secret]'",
        ),
        ("password=hunter2!", "password=[secret]"),
        ("api_key: \"x9y8z7w6\"", "api_key: \"[secret]\""),
        ("TOKEN = abcd1234", "TOKEN = [secret]"),
        (
            "hash 3f786850e387550fdab836ed7e6dc881de23001b",
            "hash [secret]",
        ),
        ("secret:s3cr3t.", "secret:[secret]."),
    ]);
    keeps(&[
        "sk-learn",
        "svc_short",
        "the bearer of bad news",
        "token: what is it?",
        "password reset",
        "my-very-long-page-slug-with-words-2024-edition",
        "123e4567-e89b-12d3-a456-426614174000",
    ]);
}

#[test]
fn ip_addresses() {
    masks(&[
        ("from 203.0.113.7, blocked", "from [ip], blocked"),
        ("host 10.0.0.1:8080", "host [ip]:8080"),
        ("bind 0.0.0.0", "bind [ip]"),
        ("2001:db8:85a3::8a2e:370:7334 is v6", "[ip] is v6"),
        ("fe80::1%eth0", "[ip]%eth0"),
        ("::1", "[ip]"),
        ("::ffff:192.0.2.128", "[ip]"),
        ("2001:0db8:0000:0000:0000:ff00:0042:8329.", "[ip]."),
    ]);
    keeps(&[
        "version 1.2.3.4.5",
        "256.1.1.1",
        "at 10:30:45",
        "std::vector",
        "a:b",
        "00:1A:2B:3C:4D:5E",
    ]);
}

#[test]
fn operator_patterns() {
    let masker = Masker::new(true, ["cust_*", "EMP-######", "TKT-#*"]).unwrap();
    let masked = masker.mask("cust_9f8e7 and emp-123456 (not EMP-1234567), tkt-1a2, xcust_1");
    assert_eq!(
        masked.as_str(),
        "[masked] and [masked] (not EMP-1234567), [masked], xcust_1"
    );
    let from_env = Masker::from_list(true, Some(" acme-* , ")).unwrap();
    assert_eq!(from_env.mask("acme-42x").as_str(), "[masked]");
    assert_eq!(Masker::from_list(true, None).unwrap(), Masker::default());
    for (bad, rule) in [
        ("a*b", "`*` may only end"),
        ("ab*", "at least 3"),
        ("a b c", "spaces"),
        (&"x".repeat(65)[..], "64"),
    ] {
        let err = Masker::new(true, [bad]).unwrap_err();
        assert!(err.contains(bad) && err.contains(rule), "{err}");
    }
    let many: Vec<String> = (0..=MAX_PATTERNS).map(|n| format!("p{n:02}*")).collect();
    assert!(Masker::new(true, many.iter().map(String::as_str))
        .unwrap_err()
        .contains("at most"));
}

#[test]
fn off_keeps_the_text() {
    let off = Masker::new(false, ["cust_*"]).unwrap();
    assert!(!off.is_on());
    assert_eq!(
        off.mask("jane@example.com cust_123").as_str(),
        "jane@example.com cust_123"
    );
}

#[test]
fn masking_twice_changes_nothing_more() {
    let text = "jane@example.com +1 415 555 0100 password=x1y2z3w4 203.0.113.7 4111111111111111";
    let once = mask(text);
    assert_eq!(once, "[email] [phone] password=[secret] [ip] [card]");
    assert_eq!(mask(&once), once);
}

#[test]
fn an_answer_repeating_the_readers_data_is_masked_there_only() {
    let question = Masker::default()
        .mask("Why is jane@example.com refused from 203.0.113.7 with svc_0123456789abcdef?");
    let answer = "The docs use 0.0.0.0 and svc_EXAMPLE_KEY_1234. For jane@example.com at 203.0.113.7, check svc_0123456789abcdef.";
    assert_eq!(
        question.mask_echoes(answer),
        "The docs use 0.0.0.0 and svc_EXAMPLE_KEY_1234. For [email] at [ip], check [secret]."
    );
    assert!(matches!(
        question.mask_echoes("Nothing of theirs."),
        Cow::Borrowed(_)
    ));
}

/// Reads of the text for `text`: the proof that the pass is linear, without a clock.
fn masked_with_reads(text: &str) -> (String, u64) {
    READS.with(|r| r.set(0));
    let out = Masker::new(true, ["cust_*", "acme:*"])
        .unwrap()
        .mask(text)
        .into_text();
    (out, READS.with(|r| r.get()))
}

#[test]
fn hostile_input_is_read_a_bounded_number_of_times_per_byte() {
    const MB: usize = 1 << 20;
    let cases: Vec<(String, Option<&str>)> = vec![
        ("1".repeat(MB), None),
        ("1 ".repeat(MB / 2), None),
        ("1-".repeat(MB / 2), None),
        ("@".repeat(MB), None),
        (".".repeat(MB), None),
        ("a.".repeat(MB / 2), None),
        ("a@".repeat(MB / 2), None),
        ("a-".repeat(MB / 2), None),
        ("a".repeat(MB), None),
        (":".repeat(MB), None),
        ("1:".repeat(MB / 2), None),
        ("1.".repeat(MB / 2), None),
        ("token:".repeat(MB / 6), None),
        ("acme:".repeat(MB / 5), None),
        ("bearer ".repeat(MB / 7), None),
        ("é".repeat(MB / 2), None),
        ("日本語".repeat(MB / 9), None),
        ("DE89 ".repeat(MB / 5), None),
        ("(".repeat(MB), None),
        ("+1".repeat(MB / 2), None),
    ];
    for (text, _) in &cases {
        let (out, reads) = masked_with_reads(text);
        assert!(
            reads <= 128 * text.len() as u64 + 64,
            "{} reads for {} bytes of {:?}…",
            reads,
            text.len(),
            &text[..12]
        );
        assert!(
            out.len() <= text.len() + text.len() / 2,
            "{:?}…",
            &text[..12]
        );
    }
    // A megabyte of one long run of key characters is one secret, read a bounded number of times.
    let long = format!("x {}1 y", "ab".repeat(MB / 2));
    let (out, reads) = masked_with_reads(&long);
    assert_eq!(out, "x [secret] y");
    assert!(reads <= 8 * long.len() as u64);
    // A megabyte of ordinary prose with data sprinkled in: every piece masked, nothing else touched.
    let prose =
        "Hello jane@example.com, call +44 20 7946 0958 or use 10.0.0.1; ok. ".repeat(MB / 68);
    let (out, reads) = masked_with_reads(&prose);
    assert_eq!(
        out,
        "Hello [email], call [phone] or use [ip]; ok. ".repeat(MB / 68)
    );
    assert!(reads <= 64 * prose.len() as u64);
}

#[test]
fn unicode_around_data_is_kept_whole() {
    masks(&[
        ("Ünïcödé → jane@example.com ← 😀", "Ünïcödé → [email] ← 😀"),
        ("電話：+81 3-1234-5678です", "電話：[phone]です"),
        ("IP是203.0.113.7。", "IP是[ip]。"),
    ]);
    keeps(&["naïve café 東京 😀", "ab\u{301}c"]);
}
