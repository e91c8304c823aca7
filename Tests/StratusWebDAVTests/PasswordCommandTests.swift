import Foundation
import Stratus
import StratusWebDAV
import Testing

/// `password_command`: its first line is the password; a command that fails, prints too much
/// or prints nothing is a configuration error whose message never quotes what it printed.
@Suite struct PasswordCommandTests {
    @Test func theFirstLineIsThePassword() throws {
        #expect(try WebDAVCredentials.readPassword(command: "printf 'hunter2\\nsecond line\\n'") == "hunter2")
    }

    @Test func aFailingCommandNamesItsStatusAndNotItsOutput() throws {
        let error = #expect(throws: ServiceError.self) {
            try WebDAVCredentials.readPassword(command: "echo leaked-secret-1; exit 4")
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("status 4") == true)
        #expect(error.map { "\($0)" }?.contains("leaked-secret-1") == false)
    }

    @Test func outputPastTheLimitIsRefusedWithoutReadingItAll() throws {
        // `yes` never ends by itself: the limit stops it.
        let error = #expect(throws: ServiceError.self) {
            try WebDAVCredentials.readPassword(command: "yes leaked-secret-2")
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("65536 bytes") == true)
        #expect(error.map { "\($0)" }?.contains("leaked-secret-2") == false)
    }

    @Test func aKilledCommandNamesTheSignal() throws {
        let error = #expect(throws: ServiceError.self) {
            try WebDAVCredentials.readPassword(command: "kill -9 $$")
        }
        #expect(error?.message.contains("signal 9") == true)
    }

    @Test func anEmptyOutputIsRefused() throws {
        #expect(throws: ServiceError.self) { try WebDAVCredentials.readPassword(command: "true") }
    }
}
