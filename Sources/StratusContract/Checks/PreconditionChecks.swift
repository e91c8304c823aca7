import Foundation
import Stratus

extension ContractSuite {
    /// Conditional writes and deletes: refused with conflict when stale, nothing changed.
    static var preconditionChecks: [ContractCheck.Definition] {
        [mustNotExist, staleMustMatch, currentMustMatch, deleteMustMatch, racingCreates]
    }

    private static let mustNotExist = ContractCheck.Definition("preconditions: mustNotExist refuses an existing file") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let created = try await run.upload(.bytes(Data("first".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        try await run.expectError(.conflict, "upload with .mustNotExist to an existing file") {
            try await run.service.upload(from: .bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        }
        try await run.expectContent(of: path, Data("first".utf8), "content after the refused write")
        try expectEqual(try await run.service.metadata(of: path).version, created.version, "current version after the refused write")
    }

    private static let staleMustMatch = ContractCheck.Definition("preconditions: a stale mustMatch is refused") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(.bytes(Data("second".utf8)), to: path)
        try await run.expectError(.conflict, "upload with .mustMatch(\(first.version)) when the file is at \(second.version)") {
            try await run.service.upload(from: .bytes(Data("stale".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        }
        try await run.expectContent(of: path, Data("second".utf8), "content after the refused write")
        try expectEqual(try await run.service.metadata(of: path).version, second.version, "current version after the refused write")
    }

    private static let currentMustMatch = ContractCheck.Definition("preconditions: a current mustMatch succeeds") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(.bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        try expect(second.version != first.version, "the write with .mustMatch(\(first.version)) returned the same version; each write needs a new one")
        try await run.expectContent(of: path, Data("second".utf8), "content after the write with a current mustMatch")
        try await run.expectError(.conflict, "upload with .mustMatch on a path where no file is") {
            try await run.service.upload(from: .bytes(Data("x".utf8)), to: try run.path("absent.json"), options: UploadOptions(precondition: .mustMatch(first.version)))
        }
    }

    private static let deleteMustMatch = ContractCheck.Definition("preconditions: delete honours mustMatch") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(.bytes(Data("second".utf8)), to: path)
        try await run.expectError(.conflict, "delete with .mustMatch(\(first.version)) when the file is at \(second.version)") {
            try await run.service.delete(path, precondition: .mustMatch(first.version))
        }
        try await run.expectContent(of: path, Data("second".utf8), "content after the refused delete")
        do {
            try await run.service.delete(path, precondition: .mustMatch(second.version))
        } catch {
            throw failure("delete with the current version, .mustMatch(\(second.version)), threw \(error)")
        }
        try await run.expectError(.notFound, "metadata(of:) after the delete") {
            try await run.service.metadata(of: path)
        }
    }

    private static let racingCreates = ContractCheck.Definition("preconditions: racing mustNotExist writes, exactly one wins") { run in
        try run.requirePreconditions()
        guard run.capabilities.conditionalWrites == .atomic else {
            throw run.skip("capabilities.conditionalWrites is .bestEffort, so racing writers may both succeed")
        }
        let path = try run.path("race/slot.json")
        let writers = 8
        let service = run.service
        let outcomes = await withTaskGroup(of: (Int, Result<RemoteFile, any Error>).self) { group in
            for writer in 0..<writers {
                group.addTask {
                    do {
                        let file = try await service.upload(
                            from: .bytes(Data("writer \(writer)".utf8)), to: path,
                            options: UploadOptions(precondition: .mustNotExist)
                        )
                        return (writer, .success(file))
                    } catch {
                        return (writer, .failure(error))
                    }
                }
            }
            var outcomes: [(Int, Result<RemoteFile, any Error>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        var winners: [Int] = []
        for (writer, outcome) in outcomes {
            switch outcome {
            case .success: winners.append(writer)
            case .failure(let error as ServiceError) where error.code == .conflict: continue
            case .failure(let error): throw failure("writer \(writer) of \(writers) racing with .mustNotExist threw \(error); expected success or conflict")
            }
        }
        try expectEqual(winners.count, 1, "number of racing .mustNotExist writes that succeeded")
        try await run.expectContent(of: path, Data("writer \(winners[0])".utf8), "content after the race")
    }
}
