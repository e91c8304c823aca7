import BenchmarkSupport
import Foundation

/// A temporary folder for the upload source, the downloads, curl's config file and the
/// children's output; removed by ``remove()``.
struct Workspace {
    let url: URL

    /// Creates the folder under the system's temporary directory (`TMPDIR`), after checking
    /// that the file system has room for `bytesNeeded`.
    init(bytesNeeded: Int64) throws {
        let parent = FileManager.default.temporaryDirectory
        let free = try Self.freeBytes(at: parent)
        guard free >= bytesNeeded else {
            throw BenchmarkFailure(
                "\(parent.path) has \(free / 1_048_576) MiB free but the benchmark needs \(bytesNeeded / 1_048_576) MiB; "
                    + "set TMPDIR to a roomier place or pass a smaller --size-mib")
        }
        url = parent.appendingPathComponent("stratus-http-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    private static func freeBytes(at folder: URL) throws -> Int64 {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else {
            throw BenchmarkFailure("cannot read the free space of \(folder.path): \(String(cString: strerror(errno)))")
        }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
