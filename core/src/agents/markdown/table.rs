//! Tables in the Markdown output: pulldown-cmark gives a table one cell at a time, and the table
//! is written whole at its end.

/// A table being read: its rows are written at its end, aligned by column count.
pub(super) struct Table {
    pub(super) head: Option<Vec<String>>,
    pub(super) aligns: Vec<pulldown_cmark::Alignment>,
    pub(super) rows: Vec<Vec<String>>,
    pub(super) row: Vec<String>,
    /// Output saved while a cell is written into `Writer::out`.
    pub(super) saved: Option<String>,
}

pub(super) fn table_markdown(table: &Table) -> String {
    let width = table
        .head
        .iter()
        .chain(table.rows.iter())
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    let row = |cells: &[String]| {
        let mut line = String::from("|");
        for i in 0..width {
            line.push(' ');
            line.push_str(cells.get(i).map(String::as_str).unwrap_or(""));
            line.push_str(" |");
        }
        line
    };
    let empty = Vec::new();
    let mut lines = vec![row(table.head.as_ref().unwrap_or(&empty))];
    let mut rule = String::from("|");
    for i in 0..width {
        rule.push_str(match table.aligns.get(i) {
            Some(pulldown_cmark::Alignment::Left) => " :-- |",
            Some(pulldown_cmark::Alignment::Center) => " :-: |",
            Some(pulldown_cmark::Alignment::Right) => " --: |",
            _ => " --- |",
        });
    }
    lines.push(rule);
    lines.extend(table.rows.iter().map(|r| row(r)));
    lines.join("\n")
}
