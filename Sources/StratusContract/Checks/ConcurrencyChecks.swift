import Foundation
import Stratus

extension ContractSuite {
    /// Many calls at once.
    static var concurrencyChecks: [ContractCheck.Definition] {
        [concurrentUploads]
    }

    private static let concurrentUploads = ContractCheck.Definition(
        "concurrency: many uploads to different paths at once"
    ) { run in
        let count = run.options.concurrentUploads
        let chunk = run.capabilities.supportsChunkedUpload ? run.capabilities.chunkSize : Int64.max
        let size = Int(max(0, min(chunk, 256 * 1024, run.largestUpload - Int64(count))))
        let service = run.service
        let folder = try run.path("concurrent")
        let failures = await withTaskGroup(of: String?.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        let content = SampleContent.data(count: size + index, seed: "concurrent-\(index)")
                        _ = try await service.upload(
                            from: .bytes(content), to: try folder.appending("file-\(index).bin"))
                        return nil
                    } catch {
                        return "upload \(index) of \(count) threw \(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group {
                if let failure { failures.append(failure) }
            }
            return failures
        }
        if let first = failures.first {
            throw failure("\(failures.count) of \(count) concurrent uploads failed; the first: \(first)")
        }
        let listed = try await run.service.list(folder)
        try expectEqual(listed.count, count, "number of files listed after \(count) concurrent uploads")
        for index in 0..<count {
            let expected = SampleContent.data(count: size + index, seed: "concurrent-\(index)")
            try await run.expectContent(
                of: try folder.appending("file-\(index).bin"), expected, "content of upload \(index)")
        }
    }
}
