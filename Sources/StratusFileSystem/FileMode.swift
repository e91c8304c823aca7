public import Foundation

/// The permission bits a process gives the files it creates.
public enum FileMode {
    /// The process's file mode creation mask, read from `/proc/self/status` so it is never
    /// changed, not even for an instant (`umask(2)` can only read it by setting it); 022 where
    /// that file does not say.
    /// - Returns: The mask, such as `0o022`.
    public static func umask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask & 0o777
    }

    /// The mode a file written in place of `path` should get: the mode of the file there now,
    /// so a private file stays private, or for a new file what the umask gives (`0o666` less
    /// the mask).
    /// - Parameter path: The destination about to be replaced.
    /// - Returns: The permission bits, such as `0o600`.
    public static func forReplacing(_ path: String) -> mode_t {
        var existing = stat()
        guard stat(path, &existing) == 0 else { return 0o666 & ~umask() }
        return mode_t(existing.st_mode) & 0o7777
    }
}
