/// A kind of fault a ``FaultWeather`` can bring, by the name a report and `--without` use.
public enum FaultKind: String, CaseIterable, Sendable, Hashable {
    /// Late look-ups.
    case lookupDelay = "late-lookup"
    /// Late commits.
    case commitDelay = "late-commit"
    /// 5xx answers.
    case serverError = "5xx"
    /// 429 answers.
    case rateLimit = "429"
    /// Writes whose answer is lost.
    case lostAnswer = "lost-answer"
    /// Change pages read twice.
    case feedReread = "feed-reread"
    /// Document downloads that answer 404.
    case download404 = "404-download"
    /// Listings that leave a document out.
    case listingOmission = "listing-omission"
    /// Change tokens refused as expired.
    case tokenExpiry = "token-expiry"

    /// The weather's chance of this kind.
    var chance: WritableKeyPath<FaultWeather, Double> {
        switch self {
        case .lookupDelay: \.lookupDelay
        case .commitDelay: \.commitDelay
        case .serverError: \.serverError
        case .rateLimit: \.rateLimit
        case .lostAnswer: \.lostAnswer
        case .feedReread: \.feedReread
        case .download404: \.download404
        case .listingOmission: \.listingOmission
        case .tokenExpiry: \.tokenExpiry
        }
    }
}

extension FaultWeather {
    /// This weather without some kinds of fault.
    /// - Parameter kinds: The kinds that must not strike.
    /// - Returns: The weather with their chances at 0.
    public func without(_ kinds: Set<FaultKind>) -> FaultWeather {
        var weather = self
        for kind in kinds { weather[keyPath: kind.chance] = 0 }
        return weather
    }
}
