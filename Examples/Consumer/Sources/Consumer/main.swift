// Two devices keep a game's progress in one remote, as an app would: backends by name from
// configuration, the embedded `local` backend, the synced key-value store.
import Foundation
import Stratus
import StratusDrive
import StratusDropbox
import StratusKeyValue
import StratusLocal
import StratusOneDrive
import StratusS3
import StratusWebDAV

let scratch = FileManager.default.temporaryDirectory.appending(
    path: "stratus-consumer-\(UUID().uuidString)", directoryHint: .isDirectory)
defer { try? FileManager.default.removeItem(at: scratch) }
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

let registry = ServiceRegistry(backends: [
    LocalBackend.self, DropboxBackend.self, DriveBackend.self, OneDriveBackend.self, S3Backend.self, WebDAVBackend.self,
])
let service = try registry.makeService(
    options: RemoteOptions(
        remoteName: "saves", typeName: "local", values: ["root": scratch.appending(path: "cloud").path]))

let phone = try KeyValueStore(folder: scratch.appending(path: "phone"), service: service)
try phone.set(.integer(13), forKey: "level")
_ = try await phone.synchronize()

let laptop = try KeyValueStore(folder: scratch.appending(path: "laptop"), service: service)
_ = try await laptop.synchronize()
guard laptop.value(forKey: "level") == .integer(13) else {
    print("consumer: the second device did not pick up level 13")
    exit(1)
}
print("consumer: level 13 on both devices; backends: \(registry.typeNames.joined(separator: ", "))")
await registry.shutdown()
