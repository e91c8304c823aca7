import Foundation
import Stratus
import StratusOAuth
import Testing

@testable import StratusOneDrive

@Suite("OneDrive addresses, tokens and options")
struct AddressTests {
    private let api = URL(string: "https://graph.example/v1.0")!

    @Test("Paths below the app folder and below a folder root, each name encoded")
    func pathAddresses() throws {
        let app = OneDriveAddress(apiURL: api, rootComponents: [], isAppFolder: true)
        #expect(app.item(.root).absoluteString == "https://graph.example/v1.0/me/drive/special/approot")
        let path = try RemotePath("saves/slot #1%.json")
        #expect(
            app.item(path, "content", query: [("@microsoft.graph.conflictBehavior", "replace")]).absoluteString
                == "https://graph.example/v1.0/me/drive/special/approot:/saves/slot%20%231%25.json:/content?%40microsoft.graph.conflictBehavior=replace"
        )
        let folder = OneDriveAddress(apiURL: api, rootComponents: ["Games", "Säves"], isAppFolder: false)
        #expect(
            folder.item(.root, "delta").absoluteString
                == "https://graph.example/v1.0/me/drive/root:/Games/S%C3%A4ves:/delta")
        #expect(
            folder.item(id: "ABC!123", "versions").absoluteString
                == "https://graph.example/v1.0/me/drive/items/ABC%21123/versions")
    }

    @Test("Change tokens carry the delta link and refuse anything else")
    func changeTokens() throws {
        let cursor = OneDriveChangeCursor(link: "https://graph.example/v1.0/me/drive/root/delta?token=abc")
        #expect(try OneDriveChangeCursor(cursor.token) == cursor)
        for bad in ["", "v1:", "v2:https://x", "https://graph.example/delta", "v1:has space"] {
            let error = #expect(throws: ServiceError.self) { try OneDriveChangeCursor(ChangeToken(rawValue: bad)) }
            #expect(error?.code == .invalidChangeToken)
        }
    }

    @Test("The root option: approot by default, else a valid folder path")
    func rootOption() throws {
        #expect(try OneDriveRoot(option: "") == .appFolder)
        #expect(try OneDriveRoot(option: "AppRoot") == .appFolder)
        #expect(try OneDriveRoot(option: "Games/Saves") == .folder("Games/Saves"))
        #expect(throws: ServiceError.self) { try OneDriveRoot(option: "Games/a:b") }
        #expect(throws: ServiceError.self) { try OneDriveRoot(option: "/") }
    }

    @Test("The Microsoft profile: v2 endpoints under the tenant, common by default, no revocation")
    func microsoftProvider() throws {
        let provider = OAuthProvider.microsoft(clientID: "app", clientSecret: nil)
        #expect(
            provider.authorizeURL.absoluteString == "https://login.microsoftonline.com/common/oauth2/v2.0/authorize")
        #expect(provider.tokenURL.absoluteString == "https://login.microsoftonline.com/common/oauth2/v2.0/token")
        #expect(provider.revocation == nil)
        let tenant = OAuthProvider.microsoft(
            clientID: "app", clientSecret: "s", tenant: "consumers", loginURL: URL(string: "http://127.0.0.1:9")!)
        #expect(tenant.tokenURL.absoluteString == "http://127.0.0.1:9/consumers/oauth2/v2.0/token")
        #expect(OAuthProvider.microsoftScopes(appFolderOnly: true) == ["offline_access", "Files.ReadWrite.AppFolder"])
        #expect(!String(describing: tenant).contains("s)"))
    }

    @Test("Backend options: a fixed token builds a service; a bad tenant or fragment size is refused")
    func backendOptions() throws {
        let service = try OneDriveBackend.makeService(
            options: RemoteOptions(
                remoteName: "od", typeName: "onedrive",
                values: ["access_token": "t", "api_url": "http://127.0.0.1:9/v1.0"]))
        #expect(service.capabilities.hashAlgorithm == .quickXorHash)
        #expect(service.capabilities.conditionalWrites == .atomic)
        #expect(!service.capabilities.supportsCustomMetadata)
        let badTenant = #expect(throws: ServiceError.self) {
            try OneDriveBackend.makeService(
                options: RemoteOptions(
                    remoteName: "od", typeName: "onedrive",
                    values: ["client_id": "c", "token_store": "/tmp/none.json", "tenant": "a/b"]))
        }
        #expect(badTenant?.code == .invalidConfiguration)
        let badFragment = #expect(throws: ServiceError.self) {
            try OneDriveBackend.makeService(
                options: RemoteOptions(
                    remoteName: "od", typeName: "onedrive", values: ["access_token": "t", "fragment_size": "1000"]))
        }
        #expect(badFragment?.code == .invalidConfiguration)
    }
}
