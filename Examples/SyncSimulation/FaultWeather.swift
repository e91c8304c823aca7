/// The faults of one stretch of a schedule: how often each kind strikes while it lasts. A mock
/// gets the wire faults as its own fault rules; every device's ``AdversarialService`` injects the
/// rest (and, on a backend without fault rules, the wire faults too).
public struct FaultWeather: Sendable, Hashable, CustomStringConvertible {
    /// The chance that a look-up (metadata, listing, the precondition read before a write) is
    /// answered late: the server reads its state, then holds the answer back.
    public var lookupDelay: Double = 0
    /// The chance that a commit (an upload) is answered late: done, then held back.
    public var commitDelay: Double = 0
    /// How long a late look-up or commit is held back, in milliseconds.
    public var delayMilliseconds = 250
    /// Whether a late look-up or commit is held back before the server acts on it (the server
    /// then reads or writes late) instead of after (the answer then tells of the past).
    public var holdsRequests = false
    /// The chance that a request is refused with a 5xx status.
    public var serverError: Double = 0
    /// The chance that a request is refused with 429.
    public var rateLimit: Double = 0
    /// The chance that a commit or delete is carried out but its answer is lost.
    public var lostAnswer: Double = 0
    /// The chance that a change page is read, thrown away (its token never saved) and read again.
    public var feedReread: Double = 0
    /// The chance that a record document's download answers 404 although it is there.
    public var download404: Double = 0
    /// The chance that a listing leaves out one record document.
    public var listingOmission: Double = 0
    /// The chance that a change token is refused as expired, so the device lists everything.
    public var tokenExpiry: Double = 0

    /// No faults.
    public static let calm = FaultWeather()

    /// Creates weather; every chance defaults to 0.
    /// - Parameters:
    ///   - lookupDelay: The chance of a late look-up answer.
    ///   - commitDelay: The chance of a late commit answer.
    ///   - delayMilliseconds: How late.
    ///   - holdsRequests: Whether the request is held before the server acts, not its answer.
    ///   - serverError: The chance of a 5xx.
    ///   - rateLimit: The chance of a 429.
    ///   - lostAnswer: The chance that a write's answer is lost.
    ///   - feedReread: The chance that a change page is read twice.
    ///   - download404: The chance that a document download answers 404.
    ///   - listingOmission: The chance that a listing leaves out a document.
    ///   - tokenExpiry: The chance that a change token is refused as expired.
    public init(
        lookupDelay: Double = 0, commitDelay: Double = 0, delayMilliseconds: Int = 250, holdsRequests: Bool = false,
        serverError: Double = 0,
        rateLimit: Double = 0, lostAnswer: Double = 0, feedReread: Double = 0, download404: Double = 0,
        listingOmission: Double = 0, tokenExpiry: Double = 0
    ) {
        self.lookupDelay = lookupDelay
        self.commitDelay = commitDelay
        self.delayMilliseconds = delayMilliseconds
        self.holdsRequests = holdsRequests
        self.serverError = serverError
        self.rateLimit = rateLimit
        self.lostAnswer = lostAnswer
        self.feedReread = feedReread
        self.download404 = download404
        self.listingOmission = listingOmission
        self.tokenExpiry = tokenExpiry
    }

    /// Whether no fault can strike.
    public var isCalm: Bool {
        [
            lookupDelay, commitDelay, serverError, rateLimit, lostAnswer, feedReread, download404, listingOmission,
            tokenExpiry,
        ]
        .allSatisfy { $0 <= 0 }
    }

    /// Draws the weather of a stretch: calm a third of the time, else a storm whose kinds each
    /// strike or not, scaled by `level`.
    /// - Parameters:
    ///   - random: The schedule's generator.
    ///   - level: How stormy a storm is (1 is the default mix; 0 is always calm).
    /// - Returns: The weather.
    public static func draw(using random: inout SeededGenerator, level: Double) -> FaultWeather {
        guard level > 0, !random.chance(0.3) else { return .calm }
        func maybe(_ chance: Double) -> Double { random.chance(0.5) ? min(1, chance * level) : 0 }
        return FaultWeather(
            lookupDelay: maybe(0.5), commitDelay: maybe(0.5),
            delayMilliseconds: [50, 250, 600][Int.random(in: 0..<3, using: &random)], holdsRequests: random.chance(0.5),
            serverError: maybe(0.08), rateLimit: maybe(0.05), lostAnswer: maybe(0.08), feedReread: maybe(0.25),
            download404: maybe(0.05), listingOmission: maybe(0.2), tokenExpiry: maybe(0.1))
    }

    /// The kinds that strike, such as `lookup delay 50% (250 ms), 5xx 8%`; `calm` when none do.
    public var description: String {
        let parts: [(String, Double)] = [
            ("lookup delay", lookupDelay), ("commit delay", commitDelay), ("5xx", serverError), ("429", rateLimit),
            ("lost answer", lostAnswer), ("feed re-read", feedReread), ("404 download", download404),
            ("listing omission", listingOmission), ("token expiry", tokenExpiry),
        ]
        let named = parts.filter { $0.1 > 0 }.map { "\($0.0) \(Int(($0.1 * 100).rounded()))%" }
        guard !named.isEmpty else { return "calm" }
        let delay =
            lookupDelay > 0 || commitDelay > 0
            ? " (\(delayMilliseconds) ms, \(holdsRequests ? "requests" : "answers") held)" : ""
        return named.joined(separator: ", ") + delay
    }
}
