import Foundation
import Stratus
import Testing

@testable import StratusDrive

/// Configuration limits, the root option, backend options and the capability descriptor.
@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        let configuration = try DriveConfiguration()
        #expect(configuration.apiURL.absoluteString == "https://www.googleapis.com")
        #expect(configuration.uploadURL.absoluteString == "https://www.googleapis.com")
        #expect(configuration.root == .appDataFolder)
        #expect(configuration.chunkSize == 8 * 1_048_576)
        #expect(configuration.singleUploadLimit == 5 * 1_048_576)
        #expect(configuration.pageSize == 100)
        #expect(configuration.deleteMode == .permanent)
        #expect(try DriveConfiguration(root: .folder("Games")).deleteMode == .trash)
        #expect(try DriveConfiguration(root: .folder("Games"), deleteMode: .permanent).deleteMode == .permanent)
    }

    @Test func limits() throws {
        #expect(throws: ServiceError.self) { try DriveConfiguration(chunkSize: 1_000_000) }
        #expect(throws: ServiceError.self) { try DriveConfiguration(chunkSize: 0) }
        _ = try DriveConfiguration(chunkSize: 262_144)
        #expect(throws: ServiceError.self) { try DriveConfiguration(singleUploadLimit: -1) }
        #expect(throws: ServiceError.self) { try DriveConfiguration(singleUploadLimit: 65 * 1_048_576) }
        #expect(throws: ServiceError.self) { try DriveConfiguration(pageSize: 0) }
        #expect(throws: ServiceError.self) { try DriveConfiguration(pageSize: 1001) }
        #expect(throws: ServiceError.self) { try DriveConfiguration(root: .folder("a//b")) }
    }

    @Test func rootOption() throws {
        #expect(try DriveRoot(option: "") == .appDataFolder)
        #expect(try DriveRoot(option: "appDataFolder") == .appDataFolder)
        #expect(try DriveRoot(option: "Games/Saves/") == .folder("Games/Saves/"))
        #expect(try DriveRoot(option: "Games/Saves/").components() == ["Games", "Saves"])
        #expect(throws: ServiceError.self) { try DriveRoot(option: "a/../b") }
        #expect(DriveRoot.appDataFolder.space == "appDataFolder")
        #expect(DriveRoot.folder("x").space == "drive")
    }

    @Test func capabilities() throws {
        let service = try DriveService(
            configuration: DriveConfiguration(chunkSize: 524_288, singleUploadLimit: 1000),
            credentials: .accessToken("t"))
        let capabilities = service.capabilities
        #expect(capabilities.hashAlgorithm == .md5)
        #expect(capabilities.conditionalWrites == .bestEffort)
        // The default root is the application data folder, where a delete is permanent and the
        // feed can promise only the net change between polls; My Drive's trash keeps every change.
        #expect(capabilities.changeFeed == .emulated)
        let inMyDrive = try DriveService(
            configuration: DriveConfiguration(root: .folder("Saves")), credentials: .accessToken("t"))
        #expect(inMyDrive.capabilities.changeFeed == .native)
        #expect(capabilities.supportsVersions)
        #expect(capabilities.supportsCustomMetadata)
        #expect(capabilities.pathRules.isCaseSensitive)
        #expect(capabilities.chunkSize == 524_288)
        #expect(capabilities.largestSingleUpload == 1000)
    }

    @Test func backendOptions() throws {
        #expect(DriveBackend.typeName == "drive")
        let names = Set(DriveBackend.options.map(\.name))
        #expect(
            names.isSuperset(of: [
                "client_id", "client_secret", "token_store", "access_token", "root", "api_url", "upload_url",
                "chunk_size", "single_upload_limit", "page_size", "delete_mode",
            ]))
        func options(_ values: [String: String]) -> RemoteOptions {
            RemoteOptions(remoteName: "gd", typeName: "drive", values: values)
        }
        #expect(throws: ServiceError.self) { try DriveBackend.makeService(options: options([:])) }
        #expect(throws: ServiceError.self) { try DriveBackend.makeService(options: options(["client_id": "id"])) }
        #expect(throws: ServiceError.self) {
            try DriveBackend.makeService(options: options(["access_token": "t", "chunk_size": "1000"]))
        }
        #expect(throws: ServiceError.self) {
            try DriveBackend.makeService(options: options(["access_token": "t", "delete_mode": "shred"]))
        }
        #expect(throws: ServiceError.self) {
            try DriveBackend.makeService(options: options(["access_token": "t", "api_url": "not a url"]))
        }
        let service = try DriveBackend.makeService(
            options: options([
                "access_token": "t", "root": "Games/Saves", "chunk_size": "524288", "single_upload_limit": "1024",
                "page_size": "7", "delete_mode": "permanent", "api_url": "http://127.0.0.1:9",
            ]))
        let drive = try #require(service as? DriveService)
        #expect(drive.configuration.root == .folder("Games/Saves"))
        #expect(drive.configuration.chunkSize == 524_288)
        #expect(drive.configuration.pageSize == 7)
        #expect(drive.configuration.deleteMode == .permanent)
        #expect(drive.configuration.uploadURL.absoluteString == "http://127.0.0.1:9")
        let viaProvider = try DriveBackend.makeService(
            options: options(["client_id": "id", "token_store": "/tmp/none.json"]))
        #expect(viaProvider.capabilities.hashAlgorithm == .md5)
    }

    @Test func credentialsNeverShowTheToken() {
        #expect(!"\(DriveCredentials.accessToken("ya29.secret-token"))".contains("secret"))
    }

    @Test func waitingPollsOnThePollIntervalOption() throws {
        func waiting(_ extra: [String: String]) throws -> ChangeWaiting {
            let values = ["access_token": "t"].merging(extra) { $1 }
            let options = RemoteOptions(remoteName: "gd", typeName: "drive", values: values)
            return try DriveBackend.makeService(options: options).capabilities.changeWaiting
        }
        #expect(DriveBackend.options.contains { $0.name == "poll_interval" })
        #expect(try waiting([:]) == .polling(PollingSchedule()))
        let configured = try waiting(["poll_interval": "5-60"])
        #expect(configured.mechanism == .polling)
        #expect(configured.polling.minimum == .seconds(5) && configured.polling.maximum == .seconds(60))
        let error = #expect(throws: ServiceError.self) { _ = try waiting(["poll_interval": "often"]) }
        #expect(error?.message.contains("'poll_interval'") == true)
    }
}
