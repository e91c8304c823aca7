import Foundation
import Stratus
import StratusAdapterKit
import StratusLocal
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusCrypt

/// Records the calls that reach the wrapped service.
final class RecordingService: ForwardingService {
    let base: any Service
    let calls = Mutex<[String]>([])

    init(_ base: any Service) { self.base = base }

    func willForward(_ call: ServiceCall) async throws {
        let entry: String
        switch call {
        case .metadata(let path): entry = "metadata \(path)"
        case .download(let path, _): entry = "download \(path)"
        case .upload(let path, _): entry = "upload \(path)"
        default: entry = "\(call)"
        }
        calls.withLock { $0.append(entry) }
    }
}

/// What `crypt` adds over the contract: keys, devices, passphrases, stored names, tampering,
/// and files the `age` tool reads.
@Suite struct CryptServiceTests {
    static func local(_ folder: URL) throws -> LocalService {
        try LocalService(root: folder.appending(path: "root"))
    }

    static func vault(
        _ base: any Service, _ password: String = "first passphrase", names: CryptService.Names = .encrypted
    )
        -> CryptService
    {
        CryptService(base: base, password: .text(password), names: names, remoteName: "vault", scryptWorkFactor: 10)
    }

    @Test func aSecondDeviceNeedsOnlyThePassphrase() async throws {
        try await withTemporaryFolder { folder in
            let base = try Self.local(folder)
            let path = try RemotePath("saves/slot 1.sav")
            _ = try await Self.vault(base).upload(from: .bytes(Data("level 13".utf8)), to: path)
            let other = Self.vault(base)
            let target = folder.appending(path: "copy")
            let file = try await other.download(path, to: target)
            #expect(try Data(contentsOf: target) == Data("level 13".utf8))
            #expect(file.size == 8)
            #expect(try await other.list(.root).map(\.path) == [path])
            #expect(try await Self.vault(base).identity() == other.identity())
        }
    }

    @Test func aWrongPassphraseIsUnauthorizedBeforeAnyDataRequest() async throws {
        try await withTemporaryFolder { folder in
            let local = try Self.local(folder)
            _ = try await Self.vault(local).upload(from: .bytes(Data("x".utf8)), to: try RemotePath("a"))
            let recording = RecordingService(local)
            let wrong = Self.vault(recording, "not the passphrase")
            let error = await #expect(throws: ServiceError.self) { _ = try await wrong.list(.root) }
            #expect(error?.code == .unauthorized)
            #expect(error?.message.contains("not the passphrase") == false)
            #expect(error?.description.contains("not the passphrase") == false)
            let key = CryptKeyFile.name
            #expect(recording.calls.withLock { $0 } == ["metadata \(key)", "download \(key)"])
        }
    }

    @Test func changingThePassphraseRewritesTheKeyFileAlone() async throws {
        try await withTemporaryFolder { folder in
            let base = try Self.local(folder)
            let path = try RemotePath("a.txt")
            _ = try await Self.vault(base).upload(from: .bytes(Data("kept".utf8)), to: path)
            let before = try await base.list(.root)
            try await Self.vault(base).changePassword(to: .text("second passphrase"))
            let after = try await base.list(.root)
            let changed = Set(after.map(\.version)).subtracting(before.map(\.version))
            #expect(changed.count == 1)
            #expect(after.first { changed.contains($0.version) }?.path.string == CryptKeyFile.name)
            await #expect(throws: ServiceError.self) { _ = try await Self.vault(base).metadata(of: path) }
            let target = folder.appending(path: "copy")
            _ = try await Self.vault(base, "second passphrase").download(path, to: target)
            #expect(try Data(contentsOf: target) == Data("kept".utf8))
        }
    }

    @Test func storedNamesAreEncryptedAndForeignFilesAreLeftOut() async throws {
        try await withTemporaryFolder { folder in
            let base = try Self.local(folder)
            let vault = Self.vault(base)
            _ = try await vault.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("secret folder/secret.txt"))
            _ = try await base.upload(from: .bytes(Data("foreign".utf8)), to: try RemotePath("readme.txt"))
            let stored = try await base.list(.root).map(\.path.string).sorted()
            #expect(stored.count == 3)
            #expect(!stored.contains { $0.contains("secret") })
            #expect(stored.contains(CryptKeyFile.name))
            #expect(try await vault.list(.root).map(\.path.string) == ["secret folder/secret.txt"])
            let plain = Self.vault(try LocalService(root: folder.appending(path: "plain-root")), names: .plain)
            await #expect(throws: ServiceError.self) {
                _ = try await plain.upload(from: .bytes(Data()), to: try RemotePath(CryptKeyFile.name))
            }
        }
    }

    @Test func aTamperedFileIsAnIntegrityMismatchAndLeavesTheDestination() async throws {
        try await withTemporaryFolder { folder in
            let base = try Self.local(folder)
            let vault = Self.vault(base)
            let path = try RemotePath("a.bin")
            _ = try await vault.upload(from: .bytes(Data(repeating: 7, count: 100_000)), to: path)
            let keys = try await vault.keys()
            let stored = try vault.stored(path, keys)
            let sealed = folder.appending(path: "sealed")
            _ = try await base.download(stored, to: sealed)
            var bytes = try [UInt8](Data(contentsOf: sealed))
            bytes[bytes.count - 20] ^= 1
            _ = try await base.upload(from: .bytes(Data(bytes)), to: stored)
            let destination = folder.appending(path: "destination")
            try Data("precious".utf8).write(to: destination)
            let error = await #expect(throws: ServiceError.self) { _ = try await vault.download(path, to: destination) }
            #expect(error?.code == .integrityMismatch)
            #expect(try Data(contentsOf: destination) == Data("precious".utf8))
            // A whole file swapped for another of the store's own files decrypts (the threat model: the
            // provider can swap whole files); its record no longer describes it and is not trusted.
            _ = try await vault.upload(from: .bytes(Data("other".utf8)), to: try RemotePath("b.bin"))
            let other = folder.appending(path: "other-sealed")
            _ = try await base.download(try vault.stored(try RemotePath("b.bin"), keys), to: other)
            _ = try await base.upload(from: .file(other), to: stored, options: UploadOptions(metadata: nil))
            _ = try await vault.download(path, to: destination)
            #expect(try Data(contentsOf: destination) == Data("other".utf8))
        }
    }

    @Test func aCorruptOrHugeKeyFileIsTyped() async throws {
        try await withTemporaryFolder { folder in
            let base = try Self.local(folder)
            let key = try RemotePath(CryptKeyFile.name)
            _ = try await base.upload(from: .bytes(Data("not a key file".utf8)), to: key)
            let corrupt = await #expect(throws: ServiceError.self) { _ = try await Self.vault(base).list(.root) }
            #expect(corrupt?.code == .integrityMismatch)
            _ = try await base.upload(from: .bytes(Data(count: 1_000_000)), to: key)
            let huge = await #expect(throws: ServiceError.self) { _ = try await Self.vault(base).list(.root) }
            #expect(huge?.code == .integrityMismatch)
        }
    }
}

/// `crypt` files as stored, read by the `age` tool, and `age` files read through `crypt`.
@Suite(.enabled(if: AgeTool.isRequired, "the age tool is not installed"))
struct CryptServiceInteropTests {
    @Test(arguments: [0, 1, 65536, 65537, 4 * 1_048_576 + 3])
    func ageDecryptsStoredFiles(size: Int) async throws {
        try await withTemporaryFolder { folder in
            let base = try CryptServiceTests.local(folder)
            let vault = CryptServiceTests.vault(base)
            let plain = Data(AgeStreamTests.content(size))
            let path = try RemotePath("folder/file.bin")
            _ = try await vault.upload(from: .bytes(plain), to: path)
            let sealed = folder.appending(path: "sealed.age")
            _ = try await base.download(try vault.stored(path, try await vault.keys()), to: sealed)
            let identityFile = folder.appending(path: "identity.txt")
            try Data((try await vault.identity().secretKeyText + "\n").utf8).write(to: identityFile)
            let output = folder.appending(path: "plain")
            let result = try await AgeTool.run(["-d", "-i", identityFile.path, sealed.path], output: output)
            #expect(result.status == 0, "age -d: \(result.error)")
            #expect(try Data(contentsOf: output) == plain)
        }
    }

    @Test func cryptReadsAFileAgeEncryptedToTheRecipient() async throws {
        try await withTemporaryFolder { folder in
            let base = try CryptServiceTests.local(folder)
            let vault = CryptServiceTests.vault(base)
            let recipient = try await vault.identity().recipient
            let input = folder.appending(path: "input")
            let plain = Data(AgeStreamTests.content(150_000))
            try plain.write(to: input)
            let sealed = folder.appending(path: "sealed.age")
            let result = try await AgeTool.run(["-r", recipient, "-o", sealed.path, input.path])
            #expect(result.status == 0, "age -r: \(result.error)")
            let path = try RemotePath("from-age.bin")
            _ = try await base.upload(from: .file(sealed), to: try vault.stored(path, try await vault.keys()))
            let listed = try await vault.list(.root)
            #expect(listed.map(\.path) == [path])
            #expect(listed.first?.size == 150_000)
            let output = folder.appending(path: "output")
            let file = try await vault.download(path, to: output)
            #expect(try Data(contentsOf: output) == plain)
            #expect(file.contentHash?.algorithm == .sha256)
        }
    }
}
