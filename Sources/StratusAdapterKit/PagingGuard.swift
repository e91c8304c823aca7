import Stratus

/// Guards a loop that follows a provider's next-page links or page tokens, so that a server can
/// not hold the caller in it: a link (or token) already followed in the same listing, or one
/// page more than a bound, ends the listing with
/// ``/Stratus/ServiceError/Code/invalidResponse`` instead of being followed.
///
/// Without it, a server that answers a page with a link back to itself (or to an earlier page)
/// is asked the same page again and again, each page kept in memory. Use one guard per listing:
///
/// ```swift
/// var paging = PagingGuard(action: "GET children", maximumPages: configuration.maximumPages)
/// var next: URL? = firstPage
/// while let url = next {
///     let page = try await read(url)
///     next = try page.nextLink.map { try follow(paging.admit($0)) }
/// }
/// ```
///
/// The links themselves never appear in the error: they can carry a provider's tokens.
public struct PagingGuard: Sendable {
    /// The default bound on pages per listing: 10,000 (two million entries at 200 a page).
    public static let defaultMaximumPages = 10_000

    /// What is listed, for messages, such as `GET children`.
    public let action: String
    /// The most pages one listing may read, at least 1.
    public let maximumPages: Int
    /// How many pages were read so far (the first one included once a link is admitted).
    public private(set) var pages = 1
    private var followed: Set<String>

    /// Creates a guard for one listing.
    /// - Parameters:
    ///   - action: What is listed, for messages.
    ///   - first: The link or token of the first page, when the listing starts from one (a
    ///     change feed's cursor), so a page that points back at it is refused too.
    ///   - maximumPages: The most pages the listing may read; values below 1 count as 1.
    public init(action: String, first: String? = nil, maximumPages: Int = PagingGuard.defaultMaximumPages) {
        self.action = action
        self.maximumPages = max(1, maximumPages)
        self.followed = first.map { [$0] } ?? []
    }

    /// Admits the link or token to the next page, to be followed.
    /// - Parameter next: What the page just read points at.
    /// - Returns: `next`, unchanged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` when `next` was followed before
    ///   in this listing, or when following it would read more than ``maximumPages`` pages.
    @discardableResult
    public mutating func admit(_ next: String) throws -> String {
        guard followed.insert(next).inserted else {
            throw ServiceError(
                .invalidResponse,
                "The server's answer to \(action) pointed back at a page it had already given (after \(pages) pages); the listing was stopped."
            )
        }
        guard pages < maximumPages else {
            throw ServiceError(
                .invalidResponse,
                "The server's answer to \(action) went on past \(maximumPages) pages; the listing was stopped.")
        }
        pages += 1
        return next
    }
}
