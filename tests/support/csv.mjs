// A strict RFC 4180 reader for the tests (quoted cells, doubled quotes, CRLF or LF rows).
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      if (cell !== '') throw new Error(`a quote inside an unquoted cell at ${i}`);
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      // the \n ends the row
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  if (quoted) throw new Error('unterminated quoted cell');
  if (cell !== '' || row.length > 0) throw new Error('the last row has no line end');
  return rows;
}
