//! English irregular forms to their base word, before stemming: suffix stripping can never meet
//! `hidden` with `hide`, `wrote` with `write`, `built` with `build` or `children` with
//! `child`, so a question asking to "hide a page" missed the section that says pages are
//! "hidden". The table is the irregular-verb list every English grammar prints (past tense and
//! participle) and the common irregular plurals, as WordNet's exception lists have them, less the
//! forms that are also everyday words of another meaning in docs (`left`, `found`, `bound`,
//! `saw`, `lay`, `felt`, `lit`, `bit`, `shot`, `won` of "won't", `gone` of the Go language,
//! `sat`) and the forms of `be`, `have`, `do` and `get`, which are stop words.
//!
//! Why a table here and not a crate: the lemmatiser crates load WordNet's files from disk at run
//! time (`wordnet-morphy`, `rust_lemmatizer`), which a Worker does not have; the edge script
//! measured 393.6 KiB gzipped with it, 390.8 KiB in a build a few commits older (at most 2.8 KiB). Which analyzers use it, and why not the index: `analyzers`.

/// (form, base word), sorted by form: binary search.
pub(super) const IRREGULAR: &[(&str, &str)] = &[
    ("analyses", "analysis"),
    ("appendices", "appendix"),
    ("arisen", "arise"),
    ("arose", "arise"),
    ("awoke", "awake"),
    ("awoken", "awake"),
    ("beaten", "beat"),
    ("became", "become"),
    ("began", "begin"),
    ("begun", "begin"),
    ("bent", "bend"),
    ("bitten", "bite"),
    ("bled", "bleed"),
    ("blew", "blow"),
    ("blown", "blow"),
    ("bought", "buy"),
    ("bred", "breed"),
    ("broke", "break"),
    ("broken", "break"),
    ("brought", "bring"),
    ("built", "build"),
    ("burnt", "burn"),
    ("came", "come"),
    ("caught", "catch"),
    ("children", "child"),
    ("chose", "choose"),
    ("chosen", "choose"),
    ("clung", "cling"),
    ("crept", "creep"),
    ("criteria", "criterion"),
    ("dealt", "deal"),
    ("drawn", "draw"),
    ("drew", "draw"),
    ("driven", "drive"),
    ("drove", "drive"),
    ("dug", "dig"),
    ("eaten", "eat"),
    ("fed", "feed"),
    ("fled", "flee"),
    ("flew", "fly"),
    ("flown", "fly"),
    ("flung", "fling"),
    ("forbade", "forbid"),
    ("forbidden", "forbid"),
    ("forgave", "forgive"),
    ("forgiven", "forgive"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("fought", "fight"),
    ("froze", "freeze"),
    ("frozen", "freeze"),
    ("gave", "give"),
    ("given", "give"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("held", "hold"),
    ("hid", "hide"),
    ("hidden", "hide"),
    ("indices", "index"),
    ("kept", "keep"),
    ("knew", "know"),
    ("known", "know"),
    ("leant", "lean"),
    ("leapt", "leap"),
    ("learnt", "learn"),
    ("led", "lead"),
    ("lent", "lend"),
    ("lost", "lose"),
    ("made", "make"),
    ("matrices", "matrix"),
    ("meant", "mean"),
    ("men", "man"),
    ("mice", "mouse"),
    ("misled", "mislead"),
    ("mistaken", "mistake"),
    ("mistook", "mistake"),
    ("outgrew", "outgrow"),
    ("outgrown", "outgrow"),
    ("overcame", "overcome"),
    ("overridden", "override"),
    ("overrode", "override"),
    ("overwritten", "overwrite"),
    ("overwrote", "overwrite"),
    ("paid", "pay"),
    ("people", "person"),
    ("proven", "prove"),
    ("ran", "run"),
    ("rebuilt", "rebuild"),
    ("redid", "redo"),
    ("redone", "redo"),
    ("remade", "remake"),
    ("reran", "rerun"),
    ("rewritten", "rewrite"),
    ("rewrote", "rewrite"),
    ("ridden", "ride"),
    ("rode", "ride"),
    ("said", "say"),
    ("sank", "sink"),
    ("sent", "send"),
    ("shaken", "shake"),
    ("shook", "shake"),
    ("shown", "show"),
    ("shrank", "shrink"),
    ("shrunk", "shrink"),
    ("slept", "sleep"),
    ("slid", "slide"),
    ("sold", "sell"),
    ("sought", "seek"),
    ("sped", "speed"),
    ("spelt", "spell"),
    ("spent", "spend"),
    ("spoilt", "spoil"),
    ("spoke", "speak"),
    ("spoken", "speak"),
    ("spun", "spin"),
    ("stole", "steal"),
    ("stolen", "steal"),
    ("stood", "stand"),
    ("stricken", "strike"),
    ("striven", "strive"),
    ("strove", "strive"),
    ("struck", "strike"),
    ("stuck", "stick"),
    ("sunk", "sink"),
    ("swam", "swim"),
    ("swept", "sweep"),
    ("swore", "swear"),
    ("sworn", "swear"),
    ("swum", "swim"),
    ("swung", "swing"),
    ("taken", "take"),
    ("taught", "teach"),
    ("thought", "think"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("told", "tell"),
    ("took", "take"),
    ("tore", "tear"),
    ("torn", "tear"),
    ("understood", "understand"),
    ("undid", "undo"),
    ("undone", "undo"),
    ("unwound", "unwind"),
    ("upheld", "uphold"),
    ("vertices", "vertex"),
    ("withdrawn", "withdraw"),
    ("withdrew", "withdraw"),
    ("withheld", "withhold"),
    ("woke", "wake"),
    ("woken", "wake"),
    ("women", "woman"),
    ("wore", "wear"),
    ("worn", "wear"),
    ("wove", "weave"),
    ("woven", "weave"),
    ("written", "write"),
    ("wrote", "write"),
];

/// The base word of an irregular form (lowercase, as the analyzers produce words), if it is one.
pub(super) fn base_word(word: &str) -> Option<&'static str> {
    IRREGULAR
        .binary_search_by(|(form, _)| (*form).cmp(word))
        .ok()
        .map(|i| IRREGULAR[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_lowercase_and_maps_to_other_words() {
        assert!(
            IRREGULAR.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, each form once"
        );
        for (form, base) in IRREGULAR {
            assert!(form.bytes().all(|b| b.is_ascii_lowercase()), "{form}");
            assert_ne!(form, base);
            assert_eq!(base_word(form), Some(*base));
        }
        assert_eq!(base_word("hide"), None);
        assert_eq!(
            base_word("left"),
            None,
            "an everyday word of another meaning"
        );
    }
}
