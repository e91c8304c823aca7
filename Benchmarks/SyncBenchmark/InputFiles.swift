import Foundation

/// The files records carry: distinct seeded content of the same size.
struct InputFiles {
    let urls: [URL]
    let totalBytes: Int64

    init(count: Int, kib: Int, folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = UInt64(0x5EED)
        var urls: [URL] = []
        for index in 0..<count {
            var bytes = [UInt8](repeating: 0, count: kib * 1024)
            for position in stride(from: 0, to: bytes.count, by: 8) {
                generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: generator) { word in
                    for offset in 0..<min(8, bytes.count - position) { bytes[position + offset] = word[offset] }
                }
            }
            let url = folder.appending(path: "file-\(index)")
            try Data(bytes).write(to: url)
            urls.append(url)
        }
        self.urls = urls
        totalBytes = Int64(count) * Int64(kib) * 1024
    }
}
