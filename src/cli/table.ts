/** A plain-text table for a person to read: one header line, columns padded to their widest cell. */
export function renderTable<T>(columns: { header: string; cell: (row: T) => string }[], rows: T[]): string {
  const cells = [columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => c.cell(r)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return (
    cells
      .map((line) =>
        line
          .map((cell, i) => cell.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
