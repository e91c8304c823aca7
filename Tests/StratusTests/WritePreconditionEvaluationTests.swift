import Stratus
import Testing

@Suite("WritePrecondition.check and ServiceError.nilIfNotFound")
struct WritePreconditionEvaluationTests {
    let path: RemotePath
    let version = VersionID("v1")

    init() throws {
        path = try RemotePath("saves/slot-1.json")
    }

    /// The refusal of a check, or `nil` when it held.
    func refusal(_ precondition: WritePrecondition, current: VersionID?, action: WritePrecondition.Action = .write)
        -> ServiceError?
    {
        do {
            try precondition.check(current: current, at: path, for: action)
            return nil
        } catch {
            return error
        }
    }

    @Test("none holds whatever is there")
    func noneHolds() {
        #expect(refusal(.none, current: nil) == nil)
        #expect(refusal(.none, current: version) == nil)
    }

    @Test("mustNotExist holds only where no file is")
    func mustNotExist() throws {
        #expect(refusal(.mustNotExist, current: nil) == nil)
        let error = try #require(refusal(.mustNotExist, current: version))
        #expect(error.code == .conflict)
        #expect(error.message.contains("saves/slot-1.json exists (version v1)"))
        #expect(error.message.contains("nothing was written"))
    }

    @Test("mustMatch holds only at that version")
    func mustMatch() throws {
        #expect(refusal(.mustMatch(version), current: version) == nil)
        let missing = try #require(refusal(.mustMatch(version), current: nil))
        #expect(missing.code == .conflict)
        #expect(missing.message.contains("No file is at saves/slot-1.json"))
        let stale = try #require(refusal(.mustMatch(version), current: VersionID("v2"), action: .delete))
        #expect(stale.code == .conflict)
        #expect(stale.message.contains("is at version v2, not v1"))
        #expect(stale.message.contains("nothing was deleted"))
    }

    @Test("nilIfNotFound turns notFound into nil and passes every other error on")
    func nilIfNotFound() async throws {
        let found = try await ServiceError.nilIfNotFound { 7 }
        #expect(found == 7)
        let missing: Int? = try await ServiceError.nilIfNotFound { throw ServiceError(.notFound, "Gone.") }
        #expect(missing == nil)
        await #expect(throws: ServiceError.self) {
            _ = try await ServiceError.nilIfNotFound { () throws -> Int in throw ServiceError(.network, "Reset.") }
        }
    }
}
