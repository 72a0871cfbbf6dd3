/// Columns of text, aligned: numbers to the right, words to the left.
public enum TextTable {
    /// The rows as lines, columns two spaces apart, padded to the widest cell; the columns in
    /// `rightAligned` to the right, the others to the left; no blanks at a line's end.
    public static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: width)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            let line = row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? pad + cell : (index == row.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n") + "\n"
    }
}
