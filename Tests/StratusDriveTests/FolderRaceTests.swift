import Foundation
import Hummingbird
import Stratus
import Testing

@testable import StratusDrive

/// Two clients whose first writes create the same folder at once: Drive takes both creates (it
/// allows two folders of one name), and the adapter must end with one folder that every
/// instance resolves, the loser's content in it and the loser trashed.
@Suite struct FolderRaceTests {
    @Test func twoFirstWritesToOneFolderRootMeetInOneFolder() async throws {
        let gate = CreateGate()
        try await MockFixture.withRunning(front: { $0.add(middleware: gate.middleware) }) { fixture in
            let root = DriveRoot.folder("Games/Saves")
            let first = try fixture.makeService(root: root)
            let second = try fixture.makeService(root: root)
            await gate.arm()
            let (a, b) = (try RemotePath("records/a.json"), try RemotePath("records/b.json"))
            async let wroteA = first.upload(from: .bytes(Data("A".utf8)), to: a)
            async let wroteB = second.upload(from: .bytes(Data("B".utf8)), to: b)
            _ = try await (wroteA, wroteB)
            #expect(await gate.held == 2, "both first creates were sent (the race happened)")

            let third = try fixture.makeService(root: root)
            #expect(Set(try await third.list(.root).map(\.path.string)) == ["records/a.json", "records/b.json"])
            for service in [first, second] {
                #expect(try await service.list(.root).count == 2, "every instance resolves the one folder")
            }
            let tops = try await third.children(of: "root", named: "Games").filter(\.isFolder)
            #expect(tops.count == 1, "one untrashed Games folder is left: \(tops.map(\.id))")
        }
    }

    @Test func twoFirstWritesToOneSubfolderMeetInOneFolder() async throws {
        let gate = CreateGate()
        try await MockFixture.withRunning(front: { $0.add(middleware: gate.middleware) }) { fixture in
            let root = DriveRoot.folder("Saves")
            let setup = try fixture.makeService(root: root)
            _ = try await setup.upload(from: .bytes(Data("seed".utf8)), to: try RemotePath("seed.txt"))
            let first = try fixture.makeService(root: root)
            let second = try fixture.makeService(root: root)
            _ = try await (first.list(.root), second.list(.root))
            await gate.arm()
            let (a, b) = (try RemotePath("records/a.json"), try RemotePath("records/b.json"))
            async let wroteA = first.upload(from: .bytes(Data("A".utf8)), to: a)
            async let wroteB = second.upload(from: .bytes(Data("B".utf8)), to: b)
            _ = try await (wroteA, wroteB)
            #expect(await gate.held == 2, "both creates of records were sent (the race happened)")

            for service in [first, second, try fixture.makeService(root: root)] {
                #expect(
                    Set(try await service.list(.root).map(\.path.string)) == [
                        "seed.txt", "records/a.json", "records/b.json",
                    ])
            }
            let rootID = try #require(try await setup.rootFolderID(create: false))
            let folders = try await setup.children(of: rootID, named: "records").filter(\.isFolder)
            #expect(folders.count == 1, "one untrashed records folder is left: \(folders.map(\.id))")
        }
    }
}

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
