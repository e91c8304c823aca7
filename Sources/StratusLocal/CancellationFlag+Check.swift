import Stratus
import StratusFileSystem

extension CancellationFlag {
    /// Throws ``Stratus/ServiceError/Code/cancelled`` when the task was cancelled.
    /// - Parameter message: What was stopped and what was left behind (nothing).
    func check(_ message: @autoclosure () -> String) throws {
        if isCancelled {
            throw ServiceError(.cancelled, message())
        }
    }
}
