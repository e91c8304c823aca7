import Foundation
import Stratus
import StratusKeyValue
import StratusLocal
import StratusSync
import StratusTestSupport
import Testing

/// Which error a call throws: the store's own refusals are ``KeyValueError``s, failures of the
/// sync layer underneath reach the app as the ``SyncError`` it threw.
@Suite struct ErrorTests {
    @Test func aCounterUsedAsAValueIsATypeMismatchAndNothingIsWritten() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            try a.set("text", forKey: "label")
            let error = #expect(throws: KeyValueError.self) { try a.increment("label", by: 1) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.description.hasPrefix("typeMismatch: ") == true)
            #expect(a.string(forKey: "label") == "text")
        }
    }

    @Test func aTallyPast64BitsIsAnOverflowAndNothingIsWritten() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            try a.increment("coins", by: .max)
            let past = #expect(throws: KeyValueError.self) { try a.increment("coins", by: 1) }
            #expect(past?.code == .overflow)
            let minimum = #expect(throws: KeyValueError.self) { try a.increment("coins", by: .min) }
            #expect(minimum?.code == .overflow)
            #expect(a.integer(forKey: "coins") == .max)
        }
    }

    @Test func aNumberThatIsNotFiniteIsAnInvalidValueAndNothingIsWritten() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let single = #expect(throws: KeyValueError.self) { try a.set(.double(.nan), forKey: "ratio") }
            #expect(single?.code == .invalidValue)
            let nested = #expect(throws: KeyValueError.self) {
                try a.set(["fine": 1, "speeds": ["top": [.double(.infinity)]]])
            }
            #expect(nested?.code == .invalidValue)
            #expect(a.keys.isEmpty, "all keys or none")
            let event = #expect(throws: KeyValueError.self) {
                try a.events.append("measured", payload: ["speed": .double(-.infinity)])
            }
            #expect(event?.code == .invalidValue)
            #expect(try a.events.events().isEmpty)
        }
    }

    @Test func aDamagedStoreRecordIsAnInvalidDocument() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            try a.syncStore.save(JSONValue.string("not a store"), as: RecordKey(type: "kv", id: "store"))
            let write = #expect(throws: KeyValueError.self) { try a.set(1, forKey: "x") }
            #expect(write?.code == .invalidDocument)
            let reopen = #expect(throws: KeyValueError.self) { try harness.device("a") }
            #expect(reopen?.code == .invalidDocument)
        }
    }

    @Test func aRemoteFolderThatIsNoPathIsTheSyncStoresInvalidKey() throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-kv-errors")
        defer { temporaryFolder.remove() }
        let service = try LocalService(root: temporaryFolder.url.appending(path: "remote"))
        let error = #expect(throws: SyncError.self) {
            try KeyValueStore(
                folder: temporaryFolder.url.appending(path: "device"), service: service,
                configuration: KeyValueConfiguration(remoteFolder: "../outside"))
        }
        #expect(error?.code == .invalidKey)
    }

    @Test func aServiceThatFailsIsTheSyncStoresServiceErrorUnchanged() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-kv-errors")
        defer { temporaryFolder.remove() }
        let root = temporaryFolder.url.appending(path: "remote", directoryHint: .isDirectory)
        let service = try LocalService(root: root)
        let a = try KeyValueStore(
            folder: temporaryFolder.url.appending(path: "device"), service: service,
            configuration: KeyValueConfiguration(deviceName: "a"))
        try a.set(1, forKey: "x")
        // The remote's folder becomes a file: every call of the service fails.
        try FileManager.default.removeItem(at: root)
        try Data("not a folder".utf8).write(to: root)
        let error = await #expect(throws: SyncError.self) { try await a.synchronize() }
        #expect(error?.code == .service)
        #expect(error?.serviceCode != nil)
        #expect(a.integer(forKey: "x") == 1)
    }

    @Test func anErrorDescribesItselfByCodeAndMessage() {
        let error = KeyValueError(.quotaExceeded, "The store would hold 5 keys; the limit is 4.")
        #expect(error.description == "quotaExceeded: The store would hold 5 keys; the limit is 4.")
        #expect(error.localizedDescription == error.description)
        #expect(KeyValueError.Code.overflow != .typeMismatch)
    }
}
