public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way Stratus replaces a file: write a temporary file in the destination's folder,
/// flush it, rename it over the destination, flush the folder. A reader sees the old file or
/// the new one, never a mix, a crash leaves one of the two, and a failure leaves the destination
/// as it was and no temporary file behind.
///
/// ```swift
/// try AtomicFile.write(Array(json.utf8), to: "/home/me/.config/app/token.json", mode: 0o600)
/// ```
///
/// Content that arrives in pieces (a download) is written to a temporary file by its owner,
/// flushed, checked, and then handed to ``moveIntoPlace(_:replacing:)``.
public enum AtomicFile {
    /// Replaces (or creates) a file with the given bytes, atomically and durably.
    /// - Parameters:
    ///   - bytes: The new content.
    ///   - path: The file to replace.
    ///   - mode: The new file's permission bits, less the umask's unless `ignoringUmask`.
    ///   - ignoringUmask: Whether the file gets exactly `mode` (a private file: `0o600`).
    ///   - flags: Extra `open(2)` flags for the temporary file, such as `O_NOFOLLOW | O_NONBLOCK`.
    /// - Throws: ``FileSystemError`` when any step fails; the destination is then unchanged and
    ///   the temporary file removed.
    public static func write(
        _ bytes: some ContiguousBytes,
        to path: String,
        mode: mode_t = 0o644,
        ignoringUmask: Bool = false,
        flags: Int32 = 0
    ) throws(FileSystemError) {
        let temporary = try writeTemporary(
            bytes, in: folder(of: path), named: temporaryName(for: path), mode: mode, ignoringUmask: ignoringUmask,
            flags: flags
        )
        do {
            try moveIntoPlace(temporary, replacing: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// Writes bytes to a new file and flushes them to the disk, ready to be renamed into place;
    /// on failure the new file is removed.
    /// - Parameters:
    ///   - bytes: The content.
    ///   - folder: The folder to create the file in: the destination's, so the rename stays on
    ///     one file system.
    ///   - name: The new file's name; nothing may exist there yet.
    ///   - mode: Its permission bits, less the umask's unless `ignoringUmask`.
    ///   - ignoringUmask: Whether the file gets exactly `mode`.
    ///   - flags: Extra `open(2)` flags, such as `O_NOFOLLOW`.
    /// - Returns: The new file's path.
    /// - Throws: ``FileSystemError`` when the file cannot be created, written or flushed.
    public static func writeTemporary(
        _ bytes: some ContiguousBytes,
        in folder: String,
        named name: String,
        mode: mode_t = 0o644,
        ignoringUmask: Bool = false,
        flags: Int32 = 0
    ) throws(FileSystemError) -> String {
        let path = folder + "/" + name
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | flags, mode: mode)
        do {
            if ignoringUmask { try file.setMode(mode) }
            try file.write(bytes)
            try file.synchronize()
            return path
        } catch {
            _ = unlink(path)
            throw error
        }
    }

    /// Renames a complete, flushed file over its destination, then flushes the folder so the
    /// rename survives a crash. The destination keeps its old content until the rename.
    /// - Parameters:
    ///   - temporary: The new content's file, on the destination's file system.
    ///   - destination: The file to replace.
    /// - Throws: ``FileSystemError`` when the rename fails (the temporary file is left for the
    ///   caller to remove). A folder that cannot be flushed after the rename is not an error:
    ///   the file is in place, and only its durability across a power cut is in doubt.
    public static func moveIntoPlace(_ temporary: String, replacing destination: String) throws(FileSystemError) {
        try rename(temporary, over: destination)
        try? synchronizeFolder(folder(of: destination))
    }

    /// Renames a file over another (`rename(2)`), without flushing anything: for a change of
    /// several files that flushes their folder once, at the end.
    /// - Parameters:
    ///   - source: The file to move.
    ///   - destination: Where it goes; a file there is replaced.
    /// - Throws: ``FileSystemError`` when `rename(2)` fails.
    public static func rename(_ source: String, over destination: String) throws(FileSystemError) {
        try SystemCall.checked("rename", destination) { renameEntry(source, destination) }
    }

    /// Flushes a folder's entries (names created, renamed or removed in it) to the disk.
    /// - Parameter folder: The folder.
    /// - Throws: ``FileSystemError`` when the folder cannot be opened or flushed.
    public static func synchronizeFolder(_ folder: String) throws(FileSystemError) {
        try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY).synchronize()
    }

    /// A name for a temporary file beside `path`: hidden, unique, and recognisable as the
    /// temporary of that file (`.<name>.<random>.tmp`).
    /// - Parameter path: The destination.
    /// - Returns: A file name (not a path).
    public static func temporaryName(for path: String) -> String {
        ".\(URL(filePath: path).lastPathComponent).\(UUID().uuidString).tmp"
    }

    /// The folder part of a path (`.` for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

// The C call under another name, so `AtomicFile.rename(_:over:)` can share its name.
private func renameEntry(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
