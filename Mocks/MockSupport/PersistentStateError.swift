import Foundation

/// Why a mock's saved state could not be read or written: the state file, what was wrong with
/// it, and the details.
///
/// A mock that cannot read its state file refuses to start rather than start empty and
/// overwrite it at its first save; the description names the file and says what to do.
public struct PersistentStateError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it was; compare with the static members (new ones may be added).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The file exists but could not be read (permissions, a folder in its place...).
        public static let unreadable = Code("unreadable")
        /// The file does not start with a state header: not a state file at all.
        public static let notAStateFile = Code("notAStateFile")
        /// The file holds the state of another kind of mock.
        public static let otherMock = Code("otherMock")
        /// The file was written in a format version this mock does not read.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The header is right but the state in it cannot be decoded (truncated or edited).
        public static let corrupt = Code("corrupt")
        /// The state names file contents the blob store does not hold.
        public static let missingBlobs = Code("missingBlobs")
        /// The state could not be written.
        public static let unwritable = Code("unwritable")

        /// The code's name, such as `unsupportedVersion`.
        public var description: String { name }
    }

    /// What kind of problem it was.
    public var code: Code
    /// The state file.
    public var file: URL
    /// What was found, in words.
    public var detail: String

    /// Describes a problem with a state file.
    /// - Parameters:
    ///   - code: What kind of problem it was.
    ///   - file: The state file.
    ///   - detail: What was found, in words.
    public init(code: Code, file: URL, detail: String) {
        self.code = code
        self.file = file
        self.detail = detail
    }

    /// A sentence naming the file, the problem and the way out.
    public var description: String {
        switch code {
        case .unwritable:
            return "Cannot save the mock's state to \(file.path): \(detail)"
        default:
            return "Cannot load the mock's saved state from \(file.path): \(detail). The mock does not start over a "
                + "state file it cannot read; move the file away to start with an empty store."
        }
    }
}
