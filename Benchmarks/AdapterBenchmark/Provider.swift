/// The adapters measured, each against its own mock.
enum Provider: String, CaseIterable, Sendable {
    case dropbox
    case drive

    /// Whether its mock serves HTTPS. The Dropbox SDK only speaks HTTPS. The Drive mock is served
    /// over plain HTTP (as its SDK check does): over `--tls` its resumable-upload `Location` still
    /// says `http://` (Mocks/MockDrive/UploadRoutes.swift takes the scheme from the request head,
    /// which HTTP/1.1 leaves empty), so no client could finish a resumable upload there.
    var servesTLS: Bool { self == .dropbox }

    /// The name shown in the table.
    var title: String {
        switch self {
        case .dropbox: "Dropbox"
        case .drive: "Drive"
        }
    }
}
