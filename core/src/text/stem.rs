//! Suffix folding. Not linguistically right, only consistent: both sides of a match go through
//! the same analyzer, which is all matching needs.

/// Light suffix stripping for ASCII-letter words:
/// 1. `ies`/`ied` -> `y` (`policies`, `applied`);
/// 2. otherwise a plural `s` goes unless the word ends in `ss`, `us` or `is` (`class`, `status`,
///    `analysis`), then `ing` or `ed` goes when what is left has a vowel (`string`, `need` stay),
///    undoubling a final consonant pair except `ll`/`ss`/`zz` (`running` -> `run`);
/// 3. a final `e` goes (not `ee`), so `configure`, `configured`, `configuring` all meet at `configur`.
pub(super) fn light(word: &mut String) {
    if word.len() < 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
    if word.len() > 4 && (word.ends_with("ies") || word.ends_with("ied")) {
        word.truncate(word.len() - 3);
        word.push('y');
        return;
    }
    if word.ends_with('s')
        && !(word.ends_with("ss") || word.ends_with("us") || word.ends_with("is"))
    {
        word.pop();
    }
    let suffix = if word.ends_with("ing") {
        3
    } else if word.ends_with("ed") && !word.ends_with("eed") {
        2
    } else {
        0
    };
    if suffix > 0 {
        let rest = word.len() - suffix;
        if rest >= 2 && word.bytes().take(rest).any(is_vowel) {
            word.truncate(rest);
            undouble(word);
        }
    }
    if word.len() >= 3 && word.ends_with('e') && !word.ends_with("ee") {
        word.pop();
    }
}

/// English plurals of ASCII words over three characters: `ies` -> `y` (`entries`), else a final
/// `s` goes unless the word ends in `ss`, `us` or `is`. Conservative, for the assistant, which
/// quotes what it matched.
pub(super) fn plural(word: &mut String) {
    let n = word.len();
    if !word.is_ascii() || n <= 3 {
        return;
    }
    if n > 4 && word.ends_with("ies") {
        word.truncate(n - 3);
        word.push('y');
    } else if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        word.pop();
    }
}

fn undouble(word: &mut String) {
    let bytes = word.as_bytes();
    let n = bytes.len();
    if n >= 4 {
        let (a, b) = (bytes[n - 2], bytes[n - 1]);
        if a == b && !is_vowel(b) && !matches!(b, b'l' | b's' | b'z') {
            word.pop();
        }
    }
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stemmed(word: &str) -> String {
        let mut w = word.to_owned();
        light(&mut w);
        w
    }

    #[test]
    fn inflections_meet_at_one_stem() {
        for group in [
            &["configure", "configured", "configuring", "configures"][..],
            &["page", "pages"],
            &["policy", "policies"],
            &["run", "running"],
            &["setting", "settings"],
            &["add", "added", "adding"],
            &["class", "classes"],
            &["create", "created", "creating", "creates"],
        ] {
            let first = stemmed(group[0]);
            for word in group {
                assert_eq!(stemmed(word), first, "{word}");
            }
        }
        assert_eq!(stemmed("status"), "status");
        assert_eq!(stemmed("string"), "string");
        assert_eq!(stemmed("need"), "need");
    }
}
