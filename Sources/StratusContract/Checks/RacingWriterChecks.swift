import Foundation
import Stratus

extension ContractSuite {
    /// Racing conditional writers with bodies large enough that sending one takes time.
    ///
    /// A service that checks a precondition when a request's head arrives and writes after the
    /// body has a window as long as the body's transfer: 8-byte bodies never open it, bodies of
    /// a few MiB do. Each round starts every writer at once, each with its own content, and
    /// exactly one may win; the others must get ``ServiceError/Code/conflict``.
    static let racingCreates = ContractCheck.Definition("preconditions: racing mustNotExist writes, exactly one wins") {
        run in
        try requireAtomicWrites(run)
        for round in 0..<run.options.racingRounds {
            let path = try run.path("race/slot-\(round).bin")
            _ = try await race(run, round: round, path: path, precondition: .mustNotExist)
        }
    }

    static let racingReplacements = ContractCheck.Definition(
        "preconditions: racing mustMatch writes of one version, exactly one wins"
    ) { run in
        try requireAtomicWrites(run)
        let path = try run.path("race/slot.bin")
        var current = try await run.upload(.bytes(Data("the version every writer starts from".utf8)), to: path)
        for round in 0..<run.options.racingRounds {
            current = try await race(run, round: round, path: path, precondition: .mustMatch(current.version))
        }
    }

    /// Skips a racing check unless conditional writes are declared atomic.
    private static func requireAtomicWrites(_ run: ContractRun) throws {
        try run.requirePreconditions()
        guard run.capabilities.conditionalWrites == .atomic else {
            throw run.skip("capabilities.conditionalWrites is .bestEffort, so racing writers may both succeed")
        }
    }

    /// Runs one round: every writer uploads its own content with the precondition at once.
    /// - Returns: The winner's description, checked against what the path now holds.
    private static func race(
        _ run: ContractRun, round: Int, path: RemotePath, precondition: WritePrecondition
    ) async throws -> RemoteFile {
        let writers = run.options.racingWriters
        let size = min(run.options.racingContentSize, run.options.largestRoundTrip, run.largestUpload)
        var sources: [URL] = []
        for writer in 0..<writers {
            sources.append(try run.makeContent("race-\(round)-\(writer)", size: size))
        }
        let service = run.service
        let outcomes = await withTaskGroup(of: (Int, Result<RemoteFile, any Error>).self) { group in
            for (writer, source) in sources.enumerated() {
                group.addTask {
                    do {
                        let file = try await service.upload(
                            from: .file(source), to: path, options: UploadOptions(precondition: precondition)
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
        var winners: [(writer: Int, file: RemoteFile)] = []
        for (writer, outcome) in outcomes {
            switch outcome {
            case .success(let file): winners.append((writer, file))
            case .failure(let error as ServiceError) where error.code == .conflict: continue
            case .failure(let error):
                throw failure(
                    "writer \(writer) of \(writers) racing with \(precondition) in round \(round + 1) threw \(error); expected success or conflict"
                )
            }
        }
        try expect(
            winners.count == 1,
            "\(winners.count) of \(writers) writers racing with \(precondition) (\(size)-byte bodies) succeeded in round \(round + 1) of \(run.options.racingRounds), writers \(winners.map(\.writer).sorted()); exactly one may win when capabilities.conditionalWrites is .atomic"
        )
        let winner = winners[0]
        let expectedHash = try run.hash(of: sources[winner.writer])
        try run.expectDescribes(
            winner.file, size: size, hash: expectedHash, "the winning upload's result in round \(round + 1)")
        let described = try await run.service.metadata(of: path)
        try run.expectDescribes(
            described, size: size, hash: expectedHash,
            "metadata(of: \(path)) after round \(round + 1), compared with the winner's content")
        try expectEqual(
            described.version, winner.file.version,
            "version of \(path) after round \(round + 1), compared with the winner's")
        for source in sources {
            try? FileManager.default.removeItem(at: source)
        }
        return winner.file
    }
}
