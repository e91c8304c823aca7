import Foundation
import NIOSSL
import StratusFileSystem

/// A certificate authority and a server certificate it signed, made for a mock served over
/// HTTPS: clients are told to trust ``caCertificate`` (a PEM file) and then reach the mock as
/// they would reach the provider.
///
/// Made with the `openssl` tool (installed with the project's other Debian packages): an
/// EC P-256 authority valid for 30 days, and a server certificate for the given host names and
/// addresses with `serverAuth` usage.
///
/// A machine that trusts the authority must not be exposed by it: the authority is name
/// constrained to the given hosts (by default `localhost`, `127.0.0.1` and `::1`), so nothing it
/// signs is valid for any other name, and its private key is deleted once the server
/// certificate is signed, so it signs nothing more. The folder is made mode 0700.
public struct MockCertificates: Sendable {
    /// The authority's certificate (PEM): the file clients trust.
    public let caCertificate: URL
    /// The server's certificate (PEM).
    public let certificate: URL
    /// The server's private key (PEM, mode 0600).
    public let privateKey: URL

    /// Why certificates could not be made or loaded.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Makes an authority and a server certificate in a folder (`ca.pem`, `server.pem`,
    /// `server-key.pem`), replacing files of those names; the authority's key never stays.
    ///
    /// It waits for `openssl` on the calling thread: from async code call
    /// ``create(in:hosts:)``, which leaves Swift's cooperative threads free meanwhile.
    /// - Parameters:
    ///   - folder: Where the files go; created if needed.
    ///   - hosts: The names and addresses the server certificate is valid for.
    /// - Returns: The files.
    /// - Throws: ``Failure`` when `openssl` is missing or fails.
    public static func make(in folder: URL, hosts: [String] = ["localhost", "127.0.0.1", "::1"]) throws
        -> MockCertificates
    {
        let plan = try Plan(folder: folder, hosts: hosts)
        defer { plan.removeIntermediates() }
        for arguments in plan.commands {
            let result: ChildProcess.Result
            do {
                result = try ChildProcess.runBlocking(
                    "openssl", arguments, output: .null, error: .collect(limit: 64 * 1024), timeout: opensslTimeout)
            } catch {
                throw Self.failure(error, arguments: arguments)
            }
            try check(result, arguments: arguments)
        }
        return try plan.finish()
    }

    /// ``make(in:hosts:)`` for async code: each `openssl` run is awaited (its child process is
    /// watched by a thread of its own), so no thread of Swift's cooperative pool waits for it.
    /// - Parameters:
    ///   - folder: Where the files go; created if needed.
    ///   - hosts: The names and addresses the server certificate is valid for.
    /// - Returns: The files.
    /// - Throws: ``Failure`` when `openssl` is missing or fails.
    public static func create(in folder: URL, hosts: [String] = ["localhost", "127.0.0.1", "::1"]) async throws
        -> MockCertificates
    {
        let plan = try Plan(folder: folder, hosts: hosts)
        defer { plan.removeIntermediates() }
        for arguments in plan.commands {
            let result: ChildProcess.Result
            do {
                result = try await ChildProcess.run(
                    "openssl", arguments, output: .null, error: .collect(limit: 64 * 1024), timeout: opensslTimeout)
            } catch {
                throw Self.failure(error, arguments: arguments)
            }
            try check(result, arguments: arguments)
        }
        return try plan.finish()
    }

    /// The files of one making, and the `openssl` runs that make them.
    private struct Plan {
        let caKey: URL
        let ca: URL
        let key: URL
        let request: URL
        let certificate: URL
        let extensions: URL
        let folder: URL
        /// The arguments of each `openssl` run, in order.
        let commands: [[String]]

        /// Makes the folder (mode 0700) and writes the server certificate's extensions.
        init(folder: URL, hosts: [String]) throws {
            try BlobStore.makePrivateFolder(folder)
            self.folder = folder
            caKey = folder.appendingPathComponent("ca-key.pem")
            ca = folder.appendingPathComponent("ca.pem")
            key = folder.appendingPathComponent("server-key.pem")
            request = folder.appendingPathComponent("server.csr")
            certificate = folder.appendingPathComponent("server.pem")
            extensions = folder.appendingPathComponent("server.ext")
            let names = hosts.map { host in
                MockCertificates.isAddress(host) ? "IP:\(host)" : "DNS:\(host)"
            }
            try """
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature, keyEncipherment
            extendedKeyUsage = serverAuth
            subjectAltName = \(names.joined(separator: ", "))

            """.write(to: extensions, atomically: true, encoding: .utf8)
            let permitted = hosts.map { host in
                guard MockCertificates.isAddress(host) else { return "permitted;DNS:\(host)" }
                return host.contains(":")
                    ? "permitted;IP:\(host)/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
                    : "permitted;IP:\(host)/255.255.255.255"
            }
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            commands = [
                ["req", "-x509"] + curve + [
                    "-keyout", caKey.path, "-out", ca.path, "-days", "30", "-subj", "/CN=Stratus mock CA",
                    "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0", "-addext",
                    "keyUsage=critical,keyCertSign,cRLSign",
                    "-addext", "nameConstraints=critical," + permitted.joined(separator: ","),
                ],
                ["req"] + curve + [
                    "-keyout", key.path, "-out", request.path, "-subj", "/CN=\(hosts.first ?? "localhost")",
                ],
                [
                    "x509", "-req", "-in", request.path, "-CA", ca.path, "-CAkey", caKey.path, "-CAcreateserial",
                    "-out", certificate.path, "-days", "30", "-extfile", extensions.path,
                ],
            ]
        }

        /// Removes the request, the extensions and the authority's key, whatever happened.
        func removeIntermediates() {
            try? FileManager.default.removeItem(at: request)
            try? FileManager.default.removeItem(at: extensions)
            try? FileManager.default.removeItem(at: caKey)
        }

        /// Once every run succeeded: the serial file removed, the key made mode 0600.
        func finish() throws -> MockCertificates {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("ca.srl"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
            return MockCertificates(caCertificate: ca, certificate: certificate, privateKey: key)
        }
    }

    /// Whether a host is an IPv4 or IPv6 address rather than a name.
    fileprivate static func isAddress(_ host: String) -> Bool {
        host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } && host.contains { $0 == "." || $0 == ":" }
    }

    /// The server side of TLS for ``MockServer``, from this certificate and key.
    public func serverConfiguration() throws -> TLSConfiguration {
        try Self.serverConfiguration(certificate: certificate, privateKey: privateKey)
    }

    /// The server side of TLS from a certificate chain file and a key file (PEM), such as
    /// ones given to `stratus-mock --cert --key`.
    /// - Parameters:
    ///   - certificate: The certificate chain, leaf first.
    ///   - privateKey: The private key.
    /// - Throws: ``Failure`` naming the file that could not be read.
    public static func serverConfiguration(certificate: URL, privateKey: URL) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate.path)
        } catch {
            throw Failure(description: "cannot read a PEM certificate from \(certificate.path): \(error)")
        }
        do {
            key = try NIOSSLPrivateKey(file: privateKey.path, format: .pem)
        } catch {
            throw Failure(description: "cannot read a PEM private key from \(privateKey.path)")
        }
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }

    /// The longest one `openssl` run may take.
    private static let opensslTimeout = Duration.seconds(120)

    /// The ``Failure`` of an `openssl` run that did not finish.
    private static func failure(_ error: any Error, arguments: [String]) -> Failure {
        if let error = error as? ChildProcessError, case .executableNotFound = error {
            return Failure(description: "cannot run openssl (install Debian's openssl package)")
        }
        return Failure(description: "openssl \(arguments.first ?? "") failed: \(error)")
    }

    /// Throws ``Failure`` with openssl's message when a run did not succeed.
    private static func check(_ result: ChildProcess.Result, arguments: [String]) throws {
        guard result.termination.isSuccess else {
            let detail = result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "openssl \(arguments.first ?? "") failed (\(result.termination)): \(detail)")
        }
    }
}
