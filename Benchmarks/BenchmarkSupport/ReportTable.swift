import Foundation

/// A table of a benchmark's report: a row of column titles and rows of cells, printed as Markdown
/// or as plain text in padded columns.
package struct ReportTable: Sendable {
    /// Where a column's cells sit.
    package enum Alignment: Sendable {
        case left
        case right
    }

    /// The columns' titles, left to right.
    package let titles: [String]
    /// Each column's alignment, in the order of ``titles``.
    package let alignments: [Alignment]
    /// The rows below the titles, each with a cell per column.
    package var rows: [[String]] = []

    /// An empty table with these columns.
    package init(columns: [(title: String, alignment: Alignment)]) {
        titles = columns.map(\.title)
        alignments = columns.map(\.alignment)
    }

    /// The whole table as Markdown lines: ``markdownHeader`` then a ``markdownRow(_:)`` per row.
    package func markdown() -> [String] {
        markdownHeader + rows.map(markdownRow)
    }

    /// The titles' line and the alignment line (`|---|--:|`), for a table whose rows are printed
    /// as they are measured.
    package var markdownHeader: [String] {
        let rule = alignments.map { $0 == .left ? "---" : "--:" }
        return [markdownRow(titles), "|" + rule.joined(separator: "|") + "|"]
    }

    /// One row as a Markdown line; a "|" in a cell (such as "curl | md5sum") is escaped, since it
    /// would end the cell.
    package func markdownRow(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    /// The titles and rows as plain text, each column padded to its widest cell on the side its
    /// alignment says, three spaces between columns.
    package func plainText() -> [String] {
        let lines = [titles] + rows
        let widths = titles.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .left ? cell + padding : padding + cell
            }.joined(separator: "   ")
        }
    }
}
