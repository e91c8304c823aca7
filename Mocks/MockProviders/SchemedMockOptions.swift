import MockDrive
import MockOneDrive

/// A mock's options that name the scheme of the links the mock writes.
protocol SchemedMockOptions {
    /// `http`, or `https` when the mock is served over TLS.
    var scheme: String { get set }
}

extension MockDriveServer.Options: SchemedMockOptions {}

extension MockOneDriveServer.Options: SchemedMockOptions {}
