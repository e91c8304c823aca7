import Hummingbird

/// Holds the first two folder creates (`POST /drive/v3/files`) after it is armed: the first
/// waits until the second has arrived (both clients have looked and found no folder), then goes
/// through; the second follows once the first is answered and a few milliseconds have passed, so
/// the two folders get distinct creation times, as two devices' requests do. A first create
/// that no second one joins goes on alone after a minute, so a test that fails does not hang.
actor CreateGate {
    /// Where a request stands at the gate.
    enum Ticket { case free, first, second }

    private var armed = false
    /// How many creates the gate has held.
    private(set) var held = 0
    private var firstWaiting: CheckedContinuation<Void, Never>?
    private var secondWaiting: CheckedContinuation<Void, Never>?
    private var firstAnswered = false

    /// Starts holding creates.
    func arm() { armed = true }

    /// Lets a request in, holding it when it is one of the first two creates after arming.
    /// - Parameter isCreate: Whether the request is a `files.create` without content.
    func enter(isCreate: Bool) async -> Ticket {
        guard armed, held < 2, isCreate else { return .free }
        held += 1
        if held == 1 {
            Task {
                try? await Task.sleep(for: .seconds(60))
                self.resumeFirst()
            }
            await withCheckedContinuation { firstWaiting = $0 }
            return .first
        }
        resumeFirst()
        if !firstAnswered { await withCheckedContinuation { secondWaiting = $0 } }
        return .second
    }

    /// Called when the first create has been answered: the second may go.
    func answered(_ ticket: Ticket) async {
        guard ticket == .first else { return }
        try? await Task.sleep(for: .milliseconds(5))
        firstAnswered = true
        secondWaiting?.resume()
        secondWaiting = nil
    }

    private func resumeFirst() {
        firstWaiting?.resume()
        firstWaiting = nil
    }

    /// The middleware that sends requests through this gate.
    nonisolated var middleware: GateMiddleware { GateMiddleware(gate: self) }
}

/// The router middleware in front of the mock that sends requests through a ``CreateGate``.
struct GateMiddleware: RouterMiddleware {
    let gate: CreateGate

    func handle(
        _ request: Request, context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let ticket = await gate.enter(
            isCreate: request.method == .post && path.hasSuffix("/drive/v3/files") && !path.contains("/upload/"))
        let response = try await next(request, context)
        await gate.answered(ticket)
        return response
    }
}
