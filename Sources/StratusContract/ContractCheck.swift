import Foundation
import Stratus

/// One promise of the ``/Stratus/Service`` protocol, checked against a fresh service.
///
/// Pass the suite's ``ContractSuite/checks`` as the arguments of a parameterized test, so each
/// check is reported on its own under its ``name``.
public struct ContractCheck: Sendable, CustomStringConvertible {
    /// What a check is before it is bound to a factory.
    struct Definition: Sendable {
        let name: String
        let body: @Sendable (ContractRun) async throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (ContractRun) async throws -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// The check's readable name, such as `"versions: three writes are listed newest first"`.
    public let name: String
    private let body: @Sendable (ContractRun) async throws -> Void
    private let makeService: ContractSuite.ServiceFactory
    private let options: ContractSuite.Options

    init(definition: Definition, makeService: @escaping ContractSuite.ServiceFactory, options: ContractSuite.Options) {
        self.name = definition.name
        self.body = definition.body
        self.makeService = makeService
        self.options = options
    }

    /// The check's name, which test runners show for each argument.
    public var description: String { name }

    /// Runs the check: makes a scratch folder and a service, checks, and removes the folder.
    /// - Returns: ``ContractOutcome/passed``, or ``ContractOutcome/skipped(reason:)`` when the
    ///   capability descriptor says the service lacks what the check looks at (or the adapter
    ///   excluded it); report the reason.
    /// - Throws: ``ContractFailure`` saying what was expected and what came back.
    @discardableResult
    public func run() async throws -> ContractOutcome {
        if let reason = options.excludedChecks[name] {
            return .skipped(reason: "excluded by the adapter: \(reason)")
        }
        let runID = "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let base = FileManager.default.temporaryDirectory.appending(
            path: "stratus-contract-\(runID)", directoryHint: .isDirectory)
        let context = ContractContext(
            scratchDirectory: base.appending(path: "service", directoryHint: .isDirectory),
            id: runID,
            changePageSize: options.changePageSize
        )
        let localFolder = base.appending(path: "local", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: base) }
        do {
            try FileManager.default.createDirectory(at: context.scratchDirectory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: localFolder, withIntermediateDirectories: true)
        } catch {
            throw ContractFailure(check: name, message: "could not create the scratch folder \(base.path): \(error)")
        }

        let service: any Service
        do {
            service = try await makeService(context)
        } catch {
            throw ContractFailure(check: name, message: "the factory could not make a service: \(error)")
        }
        let factory = makeService
        let run = ContractRun(
            service: service,
            context: context,
            localFolder: localFolder,
            options: options,
            reopen: { try await factory(context) }
        )
        do {
            try await body(run)
            return .passed
        } catch let skip as ContractSkip {
            return .skipped(reason: skip.reason)
        } catch let failure as ExpectationFailure {
            throw ContractFailure(check: name, message: failure.message)
        } catch {
            throw ContractFailure(check: name, message: "unexpected error: \(error)")
        }
    }
}
