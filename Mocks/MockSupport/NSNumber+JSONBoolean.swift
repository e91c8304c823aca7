import Foundation

extension NSNumber {
    /// Whether `JSONSerialization` made this number of a JSON `true` or `false` (it keeps
    /// booleans as numbers of C type `char` or `bool`).
    public var isJSONBoolean: Bool {
        let encoding = String(cString: objCType)
        return encoding == "c" || encoding == "B"
    }
}
