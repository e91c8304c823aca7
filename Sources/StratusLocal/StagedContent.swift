import Foundation
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Content received into the store's staging folder and flushed to the disk, not yet
/// committed: one copy to become the version's kept content, one to become the visible file.
///
/// Receiving happens without the store's lock, so a long transfer never blocks other writers;
/// committing then only renames.
struct StagedContent: Sendable {
    /// Where content comes from.
    enum Source {
        /// An open file, read from its current offset to its end.
        case file(FileDescriptor, size: Int64?)
        /// Bytes in memory.
        case bytes(Data)
    }

    /// The copy that becomes the kept version.
    let versionCopy: String
    /// The copy that becomes the visible file.
    let visibleCopy: String
    /// The content's size in bytes.
    let size: Int64
    /// The content's SHA-256 in lowercase hexadecimal.
    let sha256: String

    /// Receives content into the staging folder.
    /// - Parameters:
    ///   - source: The content.
    ///   - folder: The staging folder.
    ///   - progress: Receives the bytes received so far.
    ///   - cancellation: Checked between buffers.
    ///   - cancelledMessage: The message when the task is cancelled.
    /// - Throws: ``FileSystemError`` when reading or writing fails, ``ServiceError``
    ///   (`cancelled`) when the task is cancelled. Nothing stays in the staging folder then.
    init(
        receiving source: Source,
        in folder: String,
        progress: ProgressHandler?,
        cancellation: CancellationFlag,
        cancelledMessage: String
    ) throws {
        let name = try LocalStore.randomIdentifier()
        let versionCopy = folder + "/" + name + ".version"
        let visibleCopy = folder + "/" + name + ".visible"
        do {
            try cancellation.check(cancelledMessage)
            // Kept versions are read-only, so an editor cannot change history by accident.
            let version = try FileDescriptor.open(versionCopy, O_WRONLY | O_CREAT | O_EXCL, mode: 0o444)
            let visible = try FileDescriptor.open(visibleCopy, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
            var copy: ContentCopy
            switch source {
            case .file(let file, let size):
                copy = try ContentCopy(
                    into: [version, visible], hashing: .sha256, expectedSize: size,
                    progress: progress, cancellation: cancellation, cancelledMessage: cancelledMessage
                )
                try copy.copyAll(from: file)
            case .bytes(let data):
                copy = try ContentCopy(
                    into: [version, visible], hashing: .sha256, expectedSize: Int64(data.count),
                    progress: progress, cancellation: cancellation, cancelledMessage: cancelledMessage
                )
                try copy.copyAll(from: data)
            }
            try version.synchronize()
            try visible.synchronize()
            (self.size, self.sha256) = copy.finish()
        } catch {
            FileSystem.discardFile(versionCopy)
            FileSystem.discardFile(visibleCopy)
            throw error
        }
        self.versionCopy = versionCopy
        self.visibleCopy = visibleCopy
    }

    /// Removes whatever of the content was not moved into place.
    func discard() {
        FileSystem.discardFile(versionCopy)
        FileSystem.discardFile(visibleCopy)
    }
}
