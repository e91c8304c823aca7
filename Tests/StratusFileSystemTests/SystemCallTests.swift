import Foundation
import StratusFileSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `SystemCall`: a call interrupted by a signal is made again; any other failure is reported with
/// its `errno`.
@Suite struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgain() {
        var calls = 0
        let result = SystemCall.retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func otherFailuresAreReportedOnce() {
        var calls = 0
        let error = #expect(throws: FileSystemError.self) {
            try SystemCall.checked("open", "/nowhere") { () -> Int32 in
                calls += 1
                errno = ENOENT
                return -1
            }
        }
        #expect(calls == 1)
        #expect(error == FileSystemError(operation: "open", path: "/nowhere", errorNumber: ENOENT))
        #expect(error?.description.contains("/nowhere") == true)
    }
}
