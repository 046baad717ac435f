//! The conversations export (`GET /v1/analytics/{domain}/conversations.csv`): RFC 4180 rows, one per
//! answered question. Cells that a spreadsheet would run as a formula get a leading `'` (the OWASP
//! advice against CSV injection), since questions are typed by anyone.

use serde::Deserialize;

pub const HEADER: &[&str] = &[
    "conversation_id",
    "time",
    "question",
    "answer",
    "sources",
    "rating",
];

/// One joined row of `answers` and `feedback`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ConversationRow {
    pub thread_id: String,
    pub created_at: u64,
    pub question: String,
    pub answer: String,
    /// JSON array of cited page paths.
    pub sources: String,
    pub rating: Option<String>,
}

/// The header line.
pub fn header_line() -> String {
    line(HEADER.iter().copied())
}

pub fn row_line(row: &ConversationRow) -> String {
    let sources: Vec<String> = serde_json::from_slice(row.sources.as_bytes()).unwrap_or_default();
    let time = super::range::iso_of_ms(row.created_at);
    line([
        row.thread_id.as_str(),
        time.as_str(),
        row.question.as_str(),
        row.answer.as_str(),
        sources.join(" ").as_str(),
        row.rating.as_deref().unwrap_or(""),
    ])
}

fn line<'a>(cells: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_cell(&mut out, cell);
    }
    out.push_str("\r\n");
    out
}

fn push_cell(out: &mut String, cell: &str) {
    let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quoted = formula || cell.contains([',', '"', '\n', '\r']);
    if !quoted {
        out.push_str(cell);
        return;
    }
    out.push('"');
    if formula {
        out.push('\'');
    }
    out.push_str(&cell.replace('"', "\"\""));
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strict RFC 4180 reader, to prove the writer's output parses back.
    fn parse(text: &str) -> Vec<Vec<String>> {
        let mut rows = vec![];
        let mut row = vec![];
        let mut cell = String::new();
        let mut chars = text.chars().peekable();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                (true, '"') => quoted = false,
                (true, c) => cell.push(c),
                (false, '"') => quoted = true,
                (false, ',') => row.push(std::mem::take(&mut cell)),
                (false, '\r') => {}
                (false, '\n') => {
                    row.push(std::mem::take(&mut cell));
                    rows.push(std::mem::take(&mut row));
                }
                (false, c) => cell.push(c),
            }
        }
        rows
    }

    #[test]
    fn rows_round_trip_through_a_csv_reader() {
        let row = ConversationRow {
            thread_id: "thr_1".into(),
            created_at: 86_400_000 + 3_723_004,
            question: "Quotes \"and\", commas\nand lines?".into(),
            answer: "=HYPERLINK(\"x\")".into(),
            sources: "[\"a/b\",\"index\"]".into(),
            rating: Some("up".into()),
        };
        let text = header_line() + &row_line(&row);
        let rows = parse(&text);
        assert_eq!(rows[0], HEADER);
        assert_eq!(
            rows[1],
            [
                "thr_1",
                "1970-01-02T01:02:03.004Z",
                "Quotes \"and\", commas\nand lines?",
                "'=HYPERLINK(\"x\")",
                "a/b index",
                "up"
            ]
        );
        let unrated = ConversationRow {
            rating: None,
            sources: "not json".into(),
            ..row
        };
        assert_eq!(parse(&row_line(&unrated))[0][4..], ["", ""]);
    }
}
