/// A seeded adversarial schedule: the same seed and options give the same steps, faults and
/// fault draws (the interleaving of concurrent syncs and automatic sync is the machine's).
public enum SimulationSchedule {
    /// The record types: `save` is resolved by hand, `score` merges (the higher level wins),
    /// `profile` takes the newest edit, `tally` merges as the union of its write ids.
    public static let types = ["save", "score", "profile", "tally"]

    /// The steps of a random run.
    /// - Parameter options: The size, seed and fault level.
    /// - Returns: The steps, ending with calm weather, everyone online, no automatic sync.
    public static func random(_ options: AdversarialSimulation.Options) -> [SimulationStep] {
        var random = SeededGenerator(seed: options.seed ^ 0x5CED)
        var steps: [SimulationStep] = []
        let devices = options.devices
        var offlineUntil = [Int?](repeating: nil, count: devices)
        var automatic = [Bool](repeating: false, count: devices)
        for device in 0..<devices where random.chance(options.automaticShare) {
            automatic[device] = true
            steps.append(.automatic(device: device, on: true))
        }
        for round in 0..<options.rounds {
            if round % 8 == 0 || random.chance(0.1) {
                steps.append(
                    .weather(
                        FaultWeather.draw(using: &random, level: options.faultLevel).without(options.excludedFaults)))
            }
            for device in 0..<devices {
                if let until = offlineUntil[device], until <= round {
                    offlineUntil[device] = nil
                    steps.append(.offline(device: device, on: false))
                } else if offlineUntil[device] == nil, random.chance(options.offlineChance) {
                    offlineUntil[device] = round + Int.random(in: 3...12, using: &random)
                    steps.append(.offline(device: device, on: true))
                }
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let type = types[Int.random(in: 0..<types.count, using: &random)]
                    let record = Int.random(in: 0..<options.recordsPerType, using: &random)
                    if type != "tally", random.chance(0.08) {
                        steps.append(.delete(device: device, type: type, record: record))
                    } else {
                        steps.append(
                            .save(
                                device: device, type: type, record: record, withFile: random.chance(options.fileChance))
                        )
                    }
                }
                if random.chance(0.15) { steps.append(.resolveConflicts(device: device)) }
            }
            if random.chance(options.killChance) {
                steps.append(
                    .kill(
                        device: Int.random(in: 0..<devices, using: &random),
                        afterMilliseconds: Int.random(in: 0...200, using: &random)))
            }
            if random.chance(0.05) {
                let device = Int.random(in: 0..<devices, using: &random)
                automatic[device].toggle()
                steps.append(.automatic(device: device, on: automatic[device]))
            }
            let syncing = (0..<devices).filter { !automatic[$0] || random.chance(0.2) }.filter { _ in random.chance(0.7)
            }
            if !syncing.isEmpty { steps.append(.sync(syncing)) }
            if random.chance(0.3) { steps.append(.pause(milliseconds: Int.random(in: 20...300, using: &random))) }
        }
        steps.append(.weather(.calm))
        for device in 0..<devices {
            if offlineUntil[device] != nil { steps.append(.offline(device: device, on: false)) }
            if automatic[device] { steps.append(.automatic(device: device, on: false)) }
        }
        return steps
    }

    /// The racing-writers case: two devices share one union-merged record; for `rounds` rounds
    /// each saves, then both sync at once, while half of the mock's look-ups and commits are
    /// held back 250 ms (the requests, or with `holdingAnswers` their answers).
    /// - Parameters:
    ///   - rounds: How many rounds (20 makes 41 writes with the first).
    ///   - holdingAnswers: Whether the answers are held back rather than the requests.
    /// - Returns: The steps.
    public static func racingUnionWriters(rounds: Int = 20, holdingAnswers: Bool = false) -> [SimulationStep] {
        var steps: [SimulationStep] = [
            .save(device: 0, type: "tally", record: 0, withFile: false), .sync([0]), .sync([1]),
            .weather(
                FaultWeather(
                    lookupDelay: 0.5, commitDelay: 0.5, delayMilliseconds: 250, holdsRequests: !holdingAnswers)),
        ]
        for _ in 0..<rounds {
            steps += [
                .save(device: 0, type: "tally", record: 0, withFile: false),
                .save(device: 1, type: "tally", record: 0, withFile: false), .sync([0, 1]),
            ]
        }
        steps.append(.weather(.calm))
        return steps
    }

    /// The vanishing-revisions case: device 1 holds `records` records; device 0 writes a new
    /// revision of all but one; then every document download device 1 makes answers 404 while it
    /// syncs. Nothing was deleted, so no record may leave device 1.
    /// - Parameter records: How many records (11 in the case that was found).
    /// - Returns: The steps.
    /// With `accepting`, device 1's app then accepts the deletions the rail stopped at (there
    /// were none: the documents are all there), and syncs.
    public static func vanishingRevisions(records: Int = 11, accepting: Bool = false) -> [SimulationStep] {
        var steps: [SimulationStep] = (0..<records).map {
            .save(device: 0, type: "profile", record: $0, withFile: false)
        }
        steps += [.sync([0]), .sync([1])]
        steps += (0..<(records - 1)).map { .save(device: 0, type: "profile", record: $0, withFile: false) }
        steps += [.sync([0]), .weather(FaultWeather(download404: 1)), .sync([1]), .sync([1]), .weather(.calm)]
        if accepting { steps += [.sync([1]), .acceptRemoteDeletions(device: 1), .sync([1])] }
        return steps
    }
}
