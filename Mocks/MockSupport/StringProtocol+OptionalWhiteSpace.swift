extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional white space).
    ///
    /// Foundation's `trimmingCharacters(in: .whitespaces)` goes through `NSString` on Linux, which
    /// showed as 4% of the Drive mock's CPU under small uploads.
    public var trimmingOptionalWhiteSpace: String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
