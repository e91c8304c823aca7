import Foundation
import StratusFileSystem

extension ChildProcess {
    /// Reads the child's log every 100 ms until `isReady` accepts it, the child ends, or `tries`
    /// reads have passed; a cancelled wait stops the child.
    /// - Returns: The log's text at the last read.
    package func waitForLog(_ log: URL, tries: Int, until isReady: (String) -> Bool) async throws -> String {
        var text = ""
        for _ in 0..<tries where !isReady(text) {
            guard isRunning else { break }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                terminate()
                throw error
            }
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        return text
    }
}
