import Foundation
import Stratus

extension ContractSuite {
    /// Conditional writes and deletes: refused with conflict when stale, nothing changed.
    static var preconditionChecks: [ContractCheck.Definition] {
        [mustNotExist, staleMustMatch, currentMustMatch, deleteMustMatch, racingCreates, racingReplacements]
    }

    private static let mustNotExist = ContractCheck.Definition("preconditions: mustNotExist refuses an existing file") {
        run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let created = try await run.upload(
            .bytes(Data("first".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        try await run.expectError(.conflict, "upload with .mustNotExist to an existing file") {
            try await run.service.upload(
                from: .bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        }
        try await run.expectContent(of: path, Data("first".utf8), "content after the refused write")
        try expectEqual(
            try await run.service.metadata(of: path).version, created.version, "current version after the refused write"
        )
    }

    private static let staleMustMatch = ContractCheck.Definition("preconditions: a stale mustMatch is refused") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(.bytes(Data("second".utf8)), to: path)
        try await run.expectError(
            .conflict, "upload with .mustMatch(\(first.version)) when the file is at \(second.version)"
        ) {
            try await run.service.upload(
                from: .bytes(Data("stale".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
        }
        try await run.expectContent(of: path, Data("second".utf8), "content after the refused write")
        try expectEqual(
            try await run.service.metadata(of: path).version, second.version, "current version after the refused write")
    }

    private static let currentMustMatch = ContractCheck.Definition("preconditions: a current mustMatch succeeds") {
        run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(
            .bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        try expect(
            second.version != first.version,
            "the write with .mustMatch(\(first.version)) returned the same version; each write needs a new one")
        try await run.expectContent(of: path, Data("second".utf8), "content after the write with a current mustMatch")
        try await run.expectError(.conflict, "upload with .mustMatch on a path where no file is") {
            try await run.service.upload(
                from: .bytes(Data("x".utf8)), to: try run.path("absent.json"),
                options: UploadOptions(precondition: .mustMatch(first.version)))
        }
    }

    private static let deleteMustMatch = ContractCheck.Definition("preconditions: delete honours mustMatch") { run in
        try run.requirePreconditions()
        let path = try run.path("slot.json")
        let first = try await run.upload(.bytes(Data("first".utf8)), to: path)
        let second = try await run.upload(.bytes(Data("second".utf8)), to: path)
        try await run.expectError(
            .conflict, "delete with .mustMatch(\(first.version)) when the file is at \(second.version)"
        ) {
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
}
