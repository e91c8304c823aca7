public import GRDB
public import Stratus

/// The local state keeps a remote version as the provider's text in a `TEXT` column: this is
/// the one place where a column's text becomes a ``/Stratus/VersionID`` and back.
extension VersionID: DatabaseValueConvertible {
    /// The version's text, as the column stores it.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// The version a column's text names, or `nil` for anything but text.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> VersionID? {
        String.fromDatabaseValue(dbValue).map(VersionID.init(rawValue:))
    }
}
