public import Foundation
import Logging
public import Stratus
public import StratusAdapterKit
import Synchronization

/// A ``/Stratus/Service`` that encrypts everything it stores on another: contents as age v1
/// files, names (by default) with AES-SIV, under an identity kept in a passphrase-protected key
/// file in the wrapped remote.
///
/// ```swift
/// let vault = CryptService(base: dropbox, password: .command("pass show vault"))
/// _ = try await vault.upload(from: .file(save), to: try RemotePath("slot-1.sav"))
/// ```
///
/// Paths stay stable (a name always encrypts to the same stored name), so listings, the change
/// feed, ``/Stratus/Service/waitForChanges(after:timeout:)``, versions, restores and conditional writes pass
/// through to the wrapped service. The content hash reported is the SHA-256 of the plain
/// content, kept sealed in the wrapped file's custom metadata with the plain size and the
/// caller's own metadata. The first call unlocks the key file (or, on an empty remote, creates
/// it); a wrong passphrase fails that call with ``/Stratus/ServiceError/Code/unauthorized``
/// before any file is read. **Losing the passphrase loses the data.**
public final class CryptService: ForwardingService {
    /// How names are stored.
    public enum Names: String, Sendable {
        /// Encrypted per path segment with AES-SIV (the default).
        case encrypted
        /// Kept as they are: only contents are encrypted.
        case plain
    }

    /// The wrapped service, which stores the encrypted files.
    public let base: any Service
    /// How names are stored.
    public let names: Names
    /// What the wrapper can do: the wrapped service's abilities, with SHA-256 of the plain
    /// content as the hash and the name limits left after encryption.
    public let capabilities: ServiceCapabilities

    let password: PasswordSource
    let workFactor: Int
    let logger: Logger
    let remoteName: String
    private let unlocked = Mutex<CryptKeys?>(nil)
    private let unlocking = AsyncLock(cancelledMessage: "Unlocking the crypt remote's key file was cancelled.")

    /// Wraps a service.
    /// - Parameters:
    ///   - base: The service that stores the encrypted files.
    ///   - password: Where the passphrase comes from; read at the first call.
    ///   - names: Whether names are encrypted (the default) or kept plain.
    ///   - remoteName: The remote's name, for messages.
    ///   - scryptWorkFactor: log2 of scrypt's N for a new key file or a new passphrase: 18 (the
    ///     default, as `age -p`) costs about a second and 256 MiB; at most 22.
    ///   - logger: Where to log (never a secret).
    public init(
        base: any Service, password: PasswordSource, names: Names = .encrypted, remoteName: String = "crypt",
        scryptWorkFactor: Int = 18,
        logger: Logger = Logger(label: "stratus.crypt", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.base = base
        self.password = password
        self.names = names
        self.remoteName = remoteName
        self.workFactor = min(max(scryptWorkFactor, 1), AgeRecipients.maximumLogN)
        self.logger = logger
        self.capabilities = Self.capabilities(wrapping: base.capabilities, names: names)
    }

    static func capabilities(wrapping base: ServiceCapabilities, names: Names) -> ServiceCapabilities {
        var rules = base.pathRules
        if names == .encrypted {
            rules = PathRules(
                isCaseSensitive: true, forbiddenCharacters: [],
                maximumComponentLength: base.pathRules.maximumComponentLength.map {
                    NameCipher.longestPlainName(storedLimit: $0)
                },
                maximumPathLength: base.pathRules.maximumPathLength.map { NameCipher.longestPlainName(storedLimit: $0) }
            )
        }
        let largest = base.largestSingleUpload
        let perChunk = Int64(AgeStream.sealedChunkSize)
        let largestPlain =
            largest == Int64.max
            ? largest : max(0, (largest - AgeStream.x25519Overhead) / perChunk * Int64(AgeStream.chunkSize))
        return ServiceCapabilities(
            hashAlgorithm: .sha256, largestSingleUpload: largestPlain, chunkSize: base.chunkSize,
            conditionalWrites: base.conditionalWrites, supportsVersions: base.supportsVersions,
            changeFeed: base.changeFeed, supportsCustomMetadata: base.supportsCustomMetadata, pathRules: rules,
            supportsChunkedUpload: base.supportsChunkedUpload, changeWaiting: base.changeWaiting)
    }

    /// The store's identity, after the passphrase unlocked the key file: what `age -d -i` needs
    /// to decrypt any file downloaded from the wrapped remote.
    /// - Returns: The identity; print ``AgeIdentity/secretKeyText`` only on the user's request.
    /// - Throws: ``/Stratus/ServiceError/Code/unauthorized`` for a wrong passphrase, and what
    ///   the wrapped service throws.
    public func identity() async throws -> AgeIdentity {
        try await keys().identity
    }

    /// Rewrites the key file under a new passphrase (the key file alone: no other file
    /// changes), if no other device rewrote it meanwhile.
    /// - Parameter newPassword: The new passphrase's source. **Losing it loses the data.**
    /// - Throws: ``/Stratus/ServiceError/Code/unauthorized`` when the current passphrase is
    ///   wrong, ``/Stratus/ServiceError/Code/conflict`` when the key file changed meanwhile.
    public func changePassword(to newPassword: PasswordSource) async throws {
        let keys = try await keys()
        var passphrase = try newPassword.read()
        defer { Primitives.wipe(&passphrase) }
        let sealed = try CryptKeyFile.seal(keys.identity, passphrase: passphrase, logN: workFactor)
        _ = try await base.upload(
            from: .bytes(Data(sealed)), to: Self.keyFilePath,
            options: UploadOptions(precondition: .mustMatch(keys.keyFileVersion)))
        unlocked.withLock { $0 = nil }
        logger.info(
            "The key file of a crypt remote was rewritten under a new passphrase.",
            metadata: ["remote": "\(remoteName)"])
    }

    /// The key file's path in the wrapped remote.
    static let keyFilePath = RemotePath.root.appendingKnown(CryptKeyFile.name)

    /// The unlocked keys, unlocking (or creating) the key file at the first call.
    func keys() async throws -> CryptKeys {
        if let keys = unlocked.withLock({ $0 }) { return keys }
        return try await unlocking.withLock {
            if let keys = unlocked.withLock({ $0 }) { return keys }
            let keys = try await unlock()
            unlocked.withLock { $0 = keys }
            return keys
        }
    }

    private func unlock() async throws -> CryptKeys {
        for _ in 0..<3 {
            let stored: RemoteFile
            do {
                stored = try await base.metadata(of: Self.keyFilePath)
            } catch let error as ServiceError where error.code == .notFound {
                if let created = try await create() { return created }
                continue
            }
            guard stored.size <= Int64(CryptKeyFile.maximumSize) else {
                throw AgeFailure.corrupt(
                    "it is \(stored.size) bytes, more than a key file's \(CryptKeyFile.maximumSize)"
                )
                .serviceError(keyFileWhat)
            }
            let (bytes, file) = try await downloadKeyFile()
            var passphrase = try password.read()
            defer { Primitives.wipe(&passphrase) }
            do {
                let identity = try CryptKeyFile.open(bytes, passphrase: passphrase)
                return try CryptKeys(identity: identity, keyFileVersion: file.version, names: names)
            } catch let failure as AgeFailure {
                throw failure.serviceError(keyFileWhat)
            }
        }
        throw ServiceError(.conflict, "\(keyFileWhat) kept changing while it was read; try again.")
    }

    private var keyFileWhat: String { "the key file \(CryptKeyFile.name) of remote '\(remoteName)'" }

    /// Creates the key file of an empty remote; `nil` when another device created one first.
    private func create() async throws -> CryptKeys? {
        var passphrase = try password.read()
        defer { Primitives.wipe(&passphrase) }
        let identity = try AgeIdentity.generate()
        let sealed = try CryptKeyFile.seal(identity, passphrase: passphrase, logN: workFactor)
        do {
            let file = try await base.upload(
                from: .bytes(Data(sealed)), to: Self.keyFilePath, options: UploadOptions(precondition: .mustNotExist))
            logger.info("A crypt remote's key file was created.", metadata: ["remote": "\(remoteName)"])
            return try CryptKeys(identity: identity, keyFileVersion: file.version, names: names)
        } catch let error as ServiceError where error.code == .conflict {
            return nil
        }
    }

    private func downloadKeyFile() async throws -> ([UInt8], RemoteFile) {
        let folder = try LocalScratch()
        defer { folder.remove() }
        let url = folder.url.appending(path: "key")
        let file = try await base.download(Self.keyFilePath, version: nil, to: url, options: DownloadOptions())
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ServiceError(.localFile, "The downloaded key file could not be opened.")
        }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: CryptKeyFile.maximumSize + 1)).map { [UInt8]($0 ?? Data()) } ?? []
        return (bytes, file)
    }
}

/// What an unlocked key file gives: the identity and the keys derived from it.
struct CryptKeys: Sendable {
    let identity: AgeIdentity
    let keyFileVersion: VersionID
    /// The name cipher, or `nil` when names are kept plain.
    let names: NameCipher?
    /// The AES-256-SIV key that seals the record in each file's custom metadata.
    let metadataKey: [UInt8]

    init(identity: AgeIdentity, keyFileVersion: VersionID, names: CryptService.Names) throws {
        self.identity = identity
        self.keyFileVersion = keyFileVersion
        self.names = names == .encrypted ? try NameCipher(identity: identity) : nil
        self.metadataKey = try Primitives.hkdf(identity.secret, salt: [], info: "stratus-crypt/v1/record", count: 64)
    }
}

/// A private folder (0700) in the temporary directory for one operation's files.
struct LocalScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "stratus-crypt-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServiceError(
                .localFile, "A private temporary folder could not be created: \(error.localizedDescription)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension RemotePath {
    /// A child whose name is known to be valid.
    func appendingKnown(_ name: String) -> RemotePath {
        (try? appending(name)) ?? self
    }
}
