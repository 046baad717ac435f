//! BERT's uncased tokenizer, as the distilled model's vocabulary was cut: lowercase, accents
//! stripped, punctuation and CJK characters split off, then WordPiece's greedy longest match with
//! `##` continuations. A word with no cut into known pieces contributes nothing (BERT's `[UNK]`).

/// Longer words are `[UNK]` in BERT too.
const MAX_WORD_CHARS: usize = 100;

/// The vocabulary, looked up by binary search over an order sorted by text: no hash map to hold
/// beside the table.
pub(crate) struct Vocab<'a> {
    tokens: Vec<&'a str>,
    sorted: Vec<u32>,
}

impl<'a> Vocab<'a> {
    pub(crate) fn new(tokens: Vec<&'a str>) -> Vocab<'a> {
        let mut sorted: Vec<u32> = (0..tokens.len() as u32).collect();
        let text = |i: u32| tokens.get(i as usize).copied().unwrap_or("");
        sorted.sort_unstable_by(|&a, &b| text(a).cmp(text(b)));
        Vocab { tokens, sorted }
    }

    fn id(&self, piece: &str) -> Option<u32> {
        let text = |i: u32| self.tokens.get(i as usize).copied().unwrap_or("");
        let at = self.sorted.partition_point(|&i| text(i) < piece);
        self.sorted.get(at).copied().filter(|&i| text(i) == piece)
    }

    /// Calls `each` with the id of every piece of `text`, in order.
    pub(crate) fn pieces(&self, text: &str, mut each: impl FnMut(u32)) {
        let mut word = String::new();
        let flush = |word: &mut String, each: &mut dyn FnMut(u32)| {
            if !word.is_empty() {
                self.word_pieces(word, each);
                word.clear();
            }
        };
        for c in text.chars() {
            if c.is_whitespace() || c.is_control() {
                flush(&mut word, &mut each);
            } else if is_punctuation(c) || crate::text::is_cjk(c) {
                flush(&mut word, &mut each);
                let mut one = [0u8; 4];
                self.word_pieces(c.encode_utf8(&mut one), &mut each);
            } else {
                for lower in c.to_lowercase() {
                    if let Some(base) = strip_accent(lower) {
                        word.push(base);
                    }
                }
            }
        }
        flush(&mut word, &mut each);
    }

    fn word_pieces(&self, word: &str, each: &mut dyn FnMut(u32)) {
        if word.chars().count() > MAX_WORD_CHARS {
            return;
        }
        let mut ids = Vec::new();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while end > start {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(word.get(start..end).unwrap_or(""));
                if let Some(id) = self.id(&piece) {
                    found = Some(id);
                    break;
                }
                end = prev_boundary(word, end, start);
            }
            let Some(id) = found else {
                return;
            };
            ids.push(id);
            start = end;
        }
        ids.into_iter().for_each(each);
    }
}

fn prev_boundary(word: &str, end: usize, start: usize) -> usize {
    let mut e = end - 1;
    while e > start && !word.is_char_boundary(e) {
        e -= 1;
    }
    e
}

/// BERT's rule: ASCII symbols count as punctuation too (`$`, `^`, `` ` ``), beside Unicode's.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c, '\u{2000}'..='\u{206F}' | '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FF0F}')
        || matches!(c, '¡' | '¿' | '«' | '»' | '·' | '§' | '¶')
}

/// The letter without its accent for the Latin-1 and Latin Extended-A letters docs use; BERT strips
/// every combining mark after NFD, and `None` drops a lone combining mark the same way.
fn strip_accent(c: char) -> Option<char> {
    if ('\u{0300}'..='\u{036F}').contains(&c) {
        return None;
    }
    let base = match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì'..='ï' | 'ī' | 'į' => 'i',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò'..='ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ù'..='ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ś' | 'š' => 's',
        'ź' | 'ż' | 'ž' => 'z',
        'ł' => 'l',
        'ř' => 'r',
        'ď' => 'd',
        'ť' => 't',
        other => other,
    };
    Some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(vocab: &Vocab, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        vocab.pieces(text, |id| out.push(vocab.tokens[id as usize].to_owned()));
        out
    }

    #[test]
    fn cuts_words_into_the_longest_known_pieces() {
        let vocab = Vocab::new(vec![
            "[UNK]", "up", "##load", "upload", "##s", "size", ".", "max", "é",
        ]);
        assert_eq!(cut(&vocab, "Uploads size."), ["upload", "##s", "size", "."]);
        assert_eq!(
            cut(&vocab, "upmax"),
            Vec::<String>::new(),
            "no cut of `##max` into known pieces"
        );
        assert_eq!(cut(&vocab, "MAX"), ["max"]);
    }

    #[test]
    fn strips_accents_and_splits_punctuation() {
        let vocab = Vocab::new(vec!["cafe", "(", ")", "x"]);
        assert_eq!(cut(&vocab, "(café)"), ["(", "cafe", ")"]);
        assert_eq!(cut(&vocab, "x\u{0301}"), ["x"]);
    }
}
