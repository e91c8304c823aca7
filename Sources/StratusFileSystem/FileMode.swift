import Foundation

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
}
