import Dispatch
import Testing

@testable import StratusHTTP

/// ``QueueConfined``: its value is reachable on its queue, and a use anywhere else stops the
/// process (issue 28).
@Suite struct QueueConfinedTests {
    @Test func theValueIsReadAndWrittenOnItsQueue() {
        let queue = DispatchQueue(label: "stratus.test.confined")
        let confined = QueueConfined([1, 2], on: queue)
        let value = queue.sync {
            confined.value.append(3)
            return confined.value
        }
        #expect(value == [1, 2, 3])
    }

    @Test func aReadOffItsQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let confined = QueueConfined(1, on: DispatchQueue(label: "stratus.test.confined"))
            _ = confined.value
        }
    }
}
