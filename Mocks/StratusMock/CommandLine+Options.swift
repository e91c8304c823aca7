import Foundation
import MockSupport
import NIOSSL

/// The options of `stratus-mock`, parsed by hand from argv (no ArgumentParser in Mocks/).
struct MockOptions {
    /// Which mock to serve.
    enum Mode: String {
        case dropbox
        case drive
        case nextcloud
        case onedrive
    }

    var mode: Mode
    var host = "127.0.0.1"
    var port = 0
    var dataDirectory: URL?
    /// Whether the Dropbox and Drive mocks keep their metadata in memory only, even with a
    /// data directory (`--in-memory`).
    var inMemory = false
    var tokenLifetime: Duration?
    /// The `backoff` every Dropbox long-poll answer carries, in seconds.
    var longpollBackoff: Int?
    /// Whether Dropbox writes contend as Dropbox serialises them (429 `too_many_write_operations`).
    var writeContention = true
    /// Whether to serve HTTPS.
    var tls = false
    /// A certificate chain and key to serve HTTPS with, instead of made ones.
    var certificate: URL?
    var privateKey: URL?
    /// Where to write the made CA certificate.
    var caOutput: URL?
    /// More host names the made certificate (and its CA's name constraints) cover
    /// (`--tls-host`), such as a provider's real host names for a client reaching the mock
    /// through a proxy.
    var tlsHosts: [String] = []
    /// Nextcloud: the largest body one PUT may carry (`--largest-single-put`).
    var largestSinglePut: Int64?
    /// Nextcloud: how long an unused upload folder of a chunked upload lives (`--upload-expiry`).
    var uploadExpiry: Duration?

    /// Why the arguments were refused.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// The help text.
    static let usage = """
        Usage: stratus-mock <mode> [options]

        Modes:
          dropbox              Dropbox API v2 (files routes) with its OAuth 2 server, on one base URL
          drive                Google Drive API v3 (files, changes, revisions, uploads) with Google's
                               OAuth 2 token endpoint, on one base URL
          nextcloud            Nextcloud's WebDAV dialect (files, oc:fileid, versions, locks, chunked
                               uploads), status.php and the OCS capabilities and user, with HTTP Basic
                               authentication for the user it prints; the desktop client (nextcloudcmd)
                               syncs through it
          onedrive             Microsoft Graph's OneDrive API (/v1.0/me/drive: items by id and path,
                               uploads and upload sessions, delta, versions) with Microsoft identity
                               platform v2's token endpoint, plus a second port for the
                               pre-authenticated download and upload URLs

        Options:
          --port N             Port to listen on; 0 (default) picks a free one
          --host H             Address to listen on (default 127.0.0.1)
          --data-dir DIR       Where file contents are stored (default: a new temporary folder). The dropbox,
                               drive and onedrive mocks also save their metadata there (DIR/dropbox-state.json,
                               DIR/drive-state.json, DIR/onedrive-state.json: files, revisions, ids, the
                               change log, so cursors, page and delta tokens go on working), at most
                               200 ms after a change and on SIGINT or
                               SIGTERM, and a mock started again on DIR carries on where the last stopped.
                               A hard kill loses at most the last 200 ms; upload sessions never survive
          --in-memory          With --data-dir: keep metadata in memory only (start empty, save nothing)
          --token-ttl SECONDS  Access token lifetime (default: the provider's: 14400 Dropbox, 3599 Google and Microsoft)
          --longpoll-backoff SECONDS
                               Dropbox: every list_folder/longpoll answer asks for this backoff
          --no-write-contention
                               Dropbox: commits never wait or meet a 429. By default a commit holds a
                               write slot for 2 ms (a batch for 10 ms + 0.1 ms per entry); a third
                               overlapping commit, or a second batch, is refused with HTTP 429
                               too_many_write_operations and Retry-After: 1, as Dropbox does
          --tls                Serve HTTPS with a certificate the mock makes, signed by a CA of its own
                               whose certificate is written to DATA-DIR/tls/ca.pem (or --ca-out)
          --ca-out FILE        Where --tls writes the CA certificate clients should trust
          --tls-host NAME      With --tls: the made certificate is also valid for NAME (repeatable),
                               e.g. api.dropboxapi.com for a client that reaches the mock through a
                               CONNECT proxy under the provider's host names; the CA stays
                               name-constrained to localhost, 127.0.0.1, ::1 and these names
          --largest-single-put BYTES
                               Nextcloud: a PUT (of a file, or of one chunk of a chunked upload) with a
                               longer body is refused with 413 EntityTooLarge, like the body limit of the
                               web server in front of a Nextcloud; larger files go up in chunks
          --upload-expiry SECONDS
                               Nextcloud: an upload folder of a chunked upload untouched for this long is
                               removed with its chunks (default 86400, Nextcloud's 24 hours)
          --cert FILE --key FILE
                               Serve HTTPS with this certificate chain and private key (PEM)
          -h, --help           Show this help

        """

    /// Parses arguments (without the program name).
    /// - Returns: The options, or `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws -> MockOptions? {
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") { return nil }
        guard let mode = Mode(rawValue: arguments[0]) else {
            throw UsageError(
                description: "unknown mode '\(arguments[0])'; expected 'dropbox', 'drive', 'nextcloud' or 'onedrive'")
        }
        var options = MockOptions(mode: mode)
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            var value: String?
            var name = flag
            if let equals = flag.firstIndex(of: "="), flag.hasPrefix("--") {
                name = String(flag[..<equals])
                value = String(flag[flag.index(after: equals)...])
            }
            func next() throws -> String {
                if let value { return value }
                guard let argument = rest.popFirst() else { throw UsageError(description: "\(name) needs a value") }
                return argument
            }
            switch name {
            case "--port":
                let text = try next()
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(description: "--port must be 0...65535, not '\(text)'")
                }
                options.port = port
            case "--host":
                options.host = try next()
            case "--data-dir":
                options.dataDirectory = URL(fileURLWithPath: try next(), isDirectory: true)
            case "--in-memory":
                options.inMemory = true
            case "--token-ttl":
                let text = try next()
                guard let seconds = Int(text), seconds > 0 else {
                    throw UsageError(description: "--token-ttl must be a positive number of seconds, not '\(text)'")
                }
                options.tokenLifetime = .seconds(seconds)
            case "--longpoll-backoff":
                let text = try next()
                guard let seconds = Int(text), seconds >= 0 else {
                    throw UsageError(
                        description: "--longpoll-backoff must be a whole number of seconds, not '\(text)'")
                }
                options.longpollBackoff = seconds
            case "--no-write-contention":
                options.writeContention = false
            case "--tls":
                options.tls = true
            case "--ca-out":
                options.caOutput = URL(fileURLWithPath: try next())
            case "--tls-host":
                let text = try next()
                guard !text.isEmpty, !text.contains(where: { $0 == "," || $0 == "/" || $0.isWhitespace }) else {
                    throw UsageError(description: "--tls-host needs one host name or address, not '\(text)'")
                }
                options.tlsHosts.append(text)
            case "--largest-single-put":
                let text = try next()
                guard let bytes = Int64(text), bytes > 0 else {
                    throw UsageError(
                        description: "--largest-single-put must be a positive number of bytes, not '\(text)'")
                }
                options.largestSinglePut = bytes
            case "--upload-expiry":
                let text = try next()
                guard let seconds = Int(text), seconds > 0 else {
                    throw UsageError(description: "--upload-expiry must be a positive number of seconds, not '\(text)'")
                }
                options.uploadExpiry = .seconds(seconds)
            case "--cert":
                options.certificate = URL(fileURLWithPath: try next())
            case "--key":
                options.privateKey = URL(fileURLWithPath: try next())
            default:
                throw UsageError(description: "unknown option '\(flag)'")
            }
        }
        guard (options.certificate == nil) == (options.privateKey == nil) else {
            throw UsageError(description: "--cert and --key go together")
        }
        if options.certificate != nil, options.caOutput != nil {
            throw UsageError(description: "--ca-out is for the certificate --tls makes, not one given with --cert")
        }
        if options.mode != .nextcloud, options.largestSinglePut != nil || options.uploadExpiry != nil {
            throw UsageError(description: "--largest-single-put and --upload-expiry are options of the nextcloud mode")
        }
        if !options.tlsHosts.isEmpty, options.certificate != nil || !options.tls {
            throw UsageError(description: "--tls-host goes with --tls (the certificate it makes), not with --cert")
        }
        return options
    }

    /// The data directory asked for, or a new temporary one named after `prefix`; created
    /// (mode 0700) if needed.
    func makeDataDirectory(prefix: String) throws -> URL {
        let directory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try BlobStore.makePrivateFolder(directory)
        return directory
    }

    /// Whether the Dropbox, Drive and OneDrive mocks save their metadata: with `--data-dir` (a folder that
    /// outlives the process), unless `--in-memory`.
    var statePersistence: StatePersistence {
        dataDirectory != nil && !inMemory ? .saved() : .inMemory
    }

    /// The TLS configuration asked for, if any, and the CA certificate clients should trust
    /// when the mock made its own (with `openssl` awaited, off Swift's cooperative threads).
    func makeTLS(dataDirectory: URL) async throws -> (TLSConfiguration?, URL?) {
        if let certificate, let privateKey {
            return (try MockCertificates.serverConfiguration(certificate: certificate, privateKey: privateKey), nil)
        }
        guard tls else { return (nil, nil) }
        var hosts = ["localhost", "127.0.0.1", "::1"]
        if !hosts.contains(host), host != "0.0.0.0", host != "::" { hosts.append(host) }
        for name in tlsHosts where !hosts.contains(name) { hosts.append(name) }
        let made = try await MockCertificates.create(
            in: dataDirectory.appendingPathComponent("tls", isDirectory: true), hosts: hosts)
        guard let caOutput else { return (try made.serverConfiguration(), made.caCertificate) }
        try? FileManager.default.removeItem(at: caOutput)
        try FileManager.default.copyItem(at: made.caCertificate, to: caOutput)
        return (try made.serverConfiguration(), caOutput)
    }
}
