/// The fixture of the running test, for code made before the test ran that needs it: the
/// contract suite's service factory is built with the test's arguments, before the test starts
/// the mock server its services must reach.
public enum RunningFixture {
    /// The fixture, of whichever type the test uses.
    @TaskLocal static var value: (any Sendable)?

    /// Runs `body` with `fixture` as the running test's.
    /// - Parameters:
    ///   - fixture: The fixture.
    ///   - body: The work that may ask for it.
    /// - Returns: What `body` returned.
    public static func with<Result: Sendable>(
        _ fixture: some Sendable, _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await $value.withValue(fixture, operation: body)
    }

    /// The running test's fixture.
    /// - Parameter type: The fixture's type.
    /// - Returns: The fixture.
    /// - Throws: `CancellationError` when no test runs with a fixture of that type.
    public static func current<Fixture>(_ type: Fixture.Type) throws -> Fixture {
        guard let fixture = value as? Fixture else { throw CancellationError() }
        return fixture
    }
}
