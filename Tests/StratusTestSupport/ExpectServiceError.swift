import Stratus
import Testing

/// Runs a call that must throw a ``ServiceError`` with a given code, records an issue otherwise,
/// and returns the error.
@discardableResult
public func expectServiceError<Value>(
    _ code: ServiceError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ call: () async throws -> Value
) async -> ServiceError? {
    do {
        let value = try await call()
        Issue.record("Expected ServiceError(\(code)), got \(value)", sourceLocation: sourceLocation)
    } catch let error as ServiceError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected ServiceError(\(code)), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
