import Foundation
import Stratus
import StratusLocal

/// The tour's steps, each printing a line or two with the real values it got back.
struct Tour {
    let service: any Service
    /// A folder for the tour's local files (what it uploads and downloads).
    let workFolder: URL
    /// The save file the tour writes.
    let save: RemotePath

    init(service: any Service, workFolder: URL) throws {
        self.service = service
        self.workFolder = workFolder
        self.save = try RemotePath("saves/slot-1.json")
    }

    func run() async throws {
        let start = try await service.latestChangeToken()

        step(1, "Upload a save file")
        let first = try await service.upload(
            from: .bytes(saveFile(level: 1, coins: 10)), to: save,
            options: UploadOptions(metadata: ["device": "tour"])
        )
        say("uploaded \(save): \(describe(first))")

        step(2, "Read the change feed")
        let page = try await service.changes(since: start)
        say(
            "\(page.changes.count) \(page.changes.count == 1 ? "change" : "changes") since the token taken at the start:"
        )
        for change in page.changes {
            say("  \(describe(change))")
        }

        step(3, "Upload a new version")
        let second = try await service.upload(from: .bytes(saveFile(level: 2, coins: 250)), to: save)
        say("saved again: \(describe(second))")

        step(4, "List the versions")
        try await printHistory()

        step(5, "Download the old version")
        let oldCopy = workFolder.appending(path: "slot-1.version-\(first.version).json")
        let downloaded = try await service.download(save, version: first.version, to: oldCopy)
        say("version \(downloaded.version) → \(oldCopy.path)")
        say(
            "hash checked on arrival (\(short(downloaded.contentHash))); it holds \(try String(contentsOf: oldCopy, encoding: .utf8))"
        )

        step(6, "Restore the old version")
        let restored = try await service.restore(save, to: first.version)
        say(
            "version \(first.version)'s content is current again, as new version \(restored.version); nothing was lost:"
        )
        try await printHistory()

        step(7, "A write based on a stale version is refused")
        say("another device still thinks the file is at version \(second.version) and tries to overwrite it...")
        do {
            let unexpected = try await service.upload(
                from: .bytes(saveFile(level: 0, coins: 0)), to: save,
                options: UploadOptions(precondition: .mustMatch(second.version))
            )
            throw TourFailure(
                message: "the stale write was accepted as version \(unexpected.version); it should have been refused")
        } catch let error as ServiceError where error.code == .conflict {
            say("refused with \(error.code): \(error.message)")
        }
        let check = workFolder.appending(path: "slot-1.current.json")
        let current = try await service.download(save, to: check)
        say("the file is intact at version \(current.version): \(try String(contentsOf: check, encoding: .utf8))")
    }

    private func printHistory() async throws {
        let versions = try await service.versions(of: save)
        for (index, version) in versions.enumerated() {
            let label = index == 0 ? "current" : "older"
            say("  version \(version.id)  \(version.size) B  \(short(version.contentHash))  (\(label))")
        }
    }

    private func saveFile(level: Int, coins: Int) -> Data {
        Data(#"{"level":\#(level),"coins":\#(coins)}"#.utf8)
    }

    private func describe(_ file: RemoteFile) -> String {
        "version \(file.version), \(file.size) B, \(short(file.contentHash))"
            + (file.metadata.isEmpty ? "" : ", metadata \(file.metadata)")
    }

    private func describe(_ change: Change) -> String {
        switch change {
        case .upserted(let file): "upserted \(file.path) (version \(file.version))"
        case .deleted(let path): "deleted \(path)"
        }
    }

    private func short(_ hash: ContentHash?) -> String {
        guard let hash else { return "no hash" }
        return "\(hash.algorithm.rawValue) \(hash.value.prefix(12))…"
    }

    private func step(_ number: Int, _ title: String) {
        print("\n\(number). \(title)")
    }

    private func say(_ line: String) {
        print("   \(line)")
    }
}

/// A step that did not go as the tour expects.
struct TourFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
