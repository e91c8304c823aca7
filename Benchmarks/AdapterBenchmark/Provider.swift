/// The adapters measured: Dropbox, Drive and OneDrive against their mocks, S3 against moto and against
/// Ceph's RADOS Gateway, WebDAV against Apache httpd's mod_dav.
enum Provider: String, CaseIterable, Sendable {
    case dropbox
    case drive
    case onedrive
    case s3
    case webdav
    /// S3 against a single-node Ceph (last: its daemons keep running, a little, until the end).
    case s3Ceph = "s3-ceph"

    /// Whether the adapter is S3's (against moto or Ceph).
    var isS3: Bool { self == .s3 || self == .s3Ceph }

    /// Whether its mock serves HTTPS. The Dropbox SDK only speaks HTTPS. The Drive mock is served
    /// over plain HTTP (as its SDK check does): over `--tls` its resumable-upload `Location` still
    /// says `http://` (Mocks/MockDrive/UploadRoutes.swift takes the scheme from the request head,
    /// which HTTP/1.1 leaves empty), so no client could finish a resumable upload there. moto and
    /// Apache are served over plain HTTP too. The OneDrive mock is served over HTTPS: the Graph SDK's
    /// bearer-token provider gives a token only to an `https` URL.
    var servesTLS: Bool { self == .dropbox || self == .onedrive }

    /// The name shown in the table.
    var title: String {
        switch self {
        case .dropbox: "Dropbox"
        case .drive: "Drive"
        case .onedrive: "OneDrive"
        case .s3: "S3 (moto)"
        case .s3Ceph: "S3 (Ceph)"
        case .webdav: "WebDAV (Apache)"
        }
    }

    /// The hash Stratus checks transfers against, as a shell command reading standard input
    /// (`executable` is this benchmark, whose `child hash dropbox` computes Dropbox's content hash
    /// and `child hash quickxor` OneDrive's QuickXorHash, in base64 as Graph reports it).
    func hashCommand(executable: String) -> (command: String, name: String) {
        switch self {
        case .dropbox: ("\(ShellQuote.quote(executable)) child hash dropbox", "Dropbox content hash")
        case .onedrive: ("\(ShellQuote.quote(executable)) child hash quickxor", "QuickXorHash")
        case .drive, .s3, .s3Ceph: ("md5sum", "md5sum")
        case .webdav: ("sha256sum", "sha256sum")
        }
    }
}

/// Quoting for `sh -c` scripts.
enum ShellQuote {
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
