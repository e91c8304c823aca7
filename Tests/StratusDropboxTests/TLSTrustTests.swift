import Foundation
import Hummingbird
import MockDropbox
import MockOAuth
import MockSupport
import Stratus
import StratusDropbox
import StratusTestSupport
import Testing

/// The mock served over HTTPS with a CA of its own (as `stratus-mock --tls` does), reached
/// through a remote's options: trusted with `ca_file`, refused without it.
@Suite struct TLSTrustTests {
    @Test func caFileOptionTrustsTheMocksAuthorityAndNothingElseDoes() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-tls")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let certificates = try await MockCertificates.create(in: folder.appending(path: "tls"))
        let authorization = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
        let server = try MockDropboxServer(
            storageDirectory: folder.appending(path: "data"), authorization: authorization)
        let router = Router()
        server.addRoutes(to: router)
        let token = authorization.issueTokens().accessToken
        try await MockServer.withRunning(router, tls: try certificates.serverConfiguration()) { url in
            #expect(url.scheme == "https")
            var values = [
                "access_token": token,
                "api_url": url.absoluteString,
                "content_url": url.absoluteString,
                "notify_url": url.absoluteString,
            ]
            let untrusting = try DropboxBackend.makeService(
                options: RemoteOptions(remoteName: "box", typeName: "dropbox", values: values))
            let refused = await #expect(throws: ServiceError.self) { try await untrusting.list(.root) }
            #expect(refused?.code == .network)
            #expect(
                refused?.description.lowercased().contains("certificate") == true
                    || refused?.description.contains("TLS") == true)

            values["ca_file"] = certificates.caCertificate.path
            let trusting = try DropboxBackend.makeService(
                options: RemoteOptions(remoteName: "box", typeName: "dropbox", values: values))
            let file = try await trusting.upload(
                from: .bytes(Data("over tls".utf8)), to: try RemotePath("secure.txt"), options: UploadOptions())
            #expect(try await trusting.metadata(of: file.path).version == file.version)

            values["ca_file"] = folder.appending(path: "missing.pem").path
            let missing = #expect(throws: ServiceError.self) {
                _ = try DropboxBackend.makeService(
                    options: RemoteOptions(remoteName: "box", typeName: "dropbox", values: values))
            }
            #expect(missing?.code == .invalidConfiguration)
        }
    }
}
