import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) and SIGTERM into a call, so that the benchmark can cancel its task and
/// unwind: the running child is stopped and the workspace (a gigabyte or two) removed.
final class InterruptionHandler {
    private let sources: [any DispatchSourceSignal]

    init(_ onInterrupt: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: onInterrupt)
            source.resume()
            return source
        }
    }

    /// Stops listening and restores the default handling of the signals.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
