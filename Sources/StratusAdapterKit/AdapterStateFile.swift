public import Foundation
public import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private JSON file in which an adapter keeps what it must still know after a restart (such
/// as the paths its change feed names removed items by), in a state folder the app configures.
///
/// The file is written with ``/StratusFileSystem/AtomicFile`` (a reader or a crash sees the old
/// content or the new, never a mix), readable by its owner only (`0600`, in a folder made `0700`
/// when missing); reads and writes run off Swift's cooperative pool (`BlockingWork`). Callers
/// that may write concurrently order their writes themselves.
///
/// ```swift
/// let file = AdapterStateFile(folder: stateFolder, name: "drive-index-\(rootID).json")
/// try await file.write(index.saved)
/// let saved = try await file.read(SavedIndex.self)
/// ```
public struct AdapterStateFile: Sendable {
    /// The file.
    public let url: URL

    /// A state file.
    /// - Parameters:
    ///   - folder: The state folder; made (with `0700`) on the first write when missing.
    ///   - name: The file's name: letters, digits, `-`, `_` and `.` are kept, anything else
    ///     becomes `_`, so an id from a server cannot name a path elsewhere.
    public init(folder: URL, name: String) {
        let safe = String(
            name.unicodeScalars.map { scalar in
                let allowed =
                    (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                    || (scalar.value >= 0x61 && scalar.value <= 0x7A) || scalar == "-" || scalar == "_"
                    || scalar == "."
                return allowed ? Character(scalar) : "_"
            })
        url = folder.appending(path: safe.hasPrefix(".") ? "_" + safe : safe, directoryHint: .notDirectory)
    }

    /// Reads the file.
    /// - Parameter type: What it holds.
    /// - Returns: The value, or `nil` when there is no file yet.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when it cannot be read or decoded.
    public func read<Value: Decodable>(_ type: Value.Type) async throws -> Value? {
        let url = url
        let data: Data
        do {
            guard let read = try await BlockingWork.run({ _ in try Self.contents(of: url) }) else { return nil }
            data = read
        } catch {
            throw ServiceError(.localFile, "The adapter's state file \(url.path) could not be read.", underlying: error)
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw ServiceError(
                .localFile, "The adapter's state file \(url.path) is not what this adapter writes.", underlying: error)
        }
    }

    /// Replaces the file's content, atomically and durably.
    /// - Parameter value: The new content.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the folder cannot be made or the
    ///   file cannot be written.
    public func write(_ value: some Encodable) async throws {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(value)
        } catch {
            throw ServiceError(.internalError, "The adapter's state could not be encoded.", underlying: error)
        }
        let url = url
        do {
            try await BlockingWork.run { _ in
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try AtomicFile.write(data, to: url.path, mode: 0o600, ignoringUmask: true, flags: O_NOFOLLOW)
            }
        } catch {
            throw ServiceError(
                .localFile, "The adapter's state file \(url.path) could not be written.", underlying: error)
        }
    }

    /// The file's bytes, or `nil` when there is no file.
    private static func contents(of url: URL) throws -> Data? {
        do {
            return try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        }
    }
}
