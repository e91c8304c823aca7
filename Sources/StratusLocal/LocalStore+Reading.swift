import Foundation
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalStore {
    /// Describes the current file at a path.
    /// - Throws: ``ServiceError`` (`notFound`) when no file is there.
    func metadata(of path: RemotePath) throws -> RemoteFile {
        guard let record = try record(of: path), let current = record.currentVersion else {
            let what = try FileSystem.kind(at: layout.visible(path)) == .directory ? "a folder, not a file" : "no file"
            throw ServiceError(.notFound, "There is \(what) at \(path).")
        }
        return record.remoteFile(at: current)
    }

    /// Lists the files below a folder, recursively.
    ///
    /// The visible folders are walked and every file found is checked against its record: a
    /// file whose record says it is deleted, or that has no record (it was put there by hand),
    /// is left out. The state folder is never walked.
    /// - Throws: ``ServiceError`` (`notFound`) when the folder does not exist.
    func list(_ folder: RemotePath) throws -> [RemoteFile] {
        let start = layout.visible(folder)
        switch try FileSystem.kind(at: start) {
        case .directory:
            break
        case .regularFile:
            throw ServiceError(.notFound, "\(folder) is a file, not a folder. Use metadata(of:) to describe one file.")
        case nil, .other:
            throw ServiceError(.notFound, "There is no folder at \(folder).")
        }
        var files: [RemoteFile] = []
        try collect(below: folder, into: &files)
        return files
    }

    private func collect(below folder: RemotePath, into files: inout [RemoteFile]) throws {
        for (name, kind) in try FileSystem.entries(of: layout.visible(folder)) {
            if folder.isRoot, name == StoreLayout.stateFolderName { continue }
            // A name no RemotePath can hold (a control character, say) was not written by Stratus.
            guard let path = try? folder.appending(name) else { continue }
            switch kind {
            case .directory:
                try collect(below: path, into: &files)
            case .regularFile:
                if let record = try record(of: path), let current = record.currentVersion {
                    files.append(record.remoteFile(at: current))
                }
            case .other:
                continue
            }
        }
    }

    /// Reads a version's content into a local file, atomically and only if it matches its
    /// recorded hash.
    ///
    /// The content is copied into a private new file next to the destination, checked, given
    /// the destination's mode (or the umask's for a new file), flushed, and renamed over the
    /// destination; on any failure the new file is removed and the destination
    /// is left as it was.
    /// - Parameters:
    ///   - path: The file.
    ///   - version: A kept version, or `nil` for the current one.
    ///   - destination: The local file to write; its folder must exist.
    ///   - progress: Receives the bytes copied so far.
    ///   - cancellation: Checked between buffers.
    /// - Returns: The file at the version read.
    /// - Throws: ``ServiceError`` (`notFound`, `integrityMismatch`, `cancelled`, `localFile`),
    ///   ``FileSystemError``.
    func download(
        _ path: RemotePath,
        version: VersionID?,
        to destination: URL,
        progress: ProgressHandler?,
        cancellation: CancellationFlag
    ) throws -> RemoteFile {
        let target =
            destination.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? destination.path
        let folder = Self.folder(of: target)
        guard try FileSystem.kind(at: folder) == .directory else {
            throw ServiceError(
                .localFile,
                "Cannot download \(path) to \(target): the folder \(folder) does not exist. Create it first.")
        }
        if try FileSystem.kind(at: target) == .directory {
            throw ServiceError(
                .localFile, "Cannot download \(path) to \(target): a folder is there. Name a file instead.")
        }
        let (content, kept, record) = try openVersion(version, of: path)

        let temporary = folder + "/.stratus-download-" + (try Self.randomIdentifier())
        do {
            let output = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            var copy = try ContentCopy(
                into: [output], hashing: .sha256, expectedSize: kept.size, progress: progress,
                cancellation: cancellation,
                cancelledMessage: "The download of \(path) was cancelled; \(target) was left as it was."
            )
            try copy.copyAll(from: content)
            let (size, sha256) = copy.finish()
            guard sha256 == kept.sha256, size == kept.size else {
                throw ServiceError(
                    .integrityMismatch,
                    "The stored content of \(path) (version \(kept.id)) does not match its record (recorded \(kept.size) bytes with SHA-256 \(kept.sha256), read \(size) bytes with \(sha256)); \(target) was left as it was. Restore an earlier version."
                )
            }
            try output.setMode(FileMode.forReplacing(target))
            try output.synchronize()
            try AtomicFile.moveIntoPlace(temporary, replacing: target)
        } catch {
            FileSystem.discardFile(temporary)
            throw error
        }
        return record.remoteFile(at: kept)
    }

    /// The folder part of a local path.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
