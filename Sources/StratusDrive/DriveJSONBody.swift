import Foundation
import Stratus

/// A JSON value for request bodies; `null` is how Drive is told to remove a property.
enum DriveJSONBody: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case array([DriveJSONBody])
    case object([String: DriveJSONBody])
    case null

    /// The value as Foundation JSON objects.
    private var foundation: Any {
        switch self {
        case .string(let text): text
        case .bool(let value): value
        case .array(let values): values.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        case .null: NSNull()
        }
    }

    /// Encodes an object with sorted keys.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` if it cannot be encoded (it
    ///   always can; strings are the only leaves).
    static func encode(_ members: [String: DriveJSONBody]) throws -> Data {
        do {
            return try JSONSerialization.data(
                withJSONObject: DriveJSONBody.object(members).foundation,
                options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw ServiceError(.invalidResponse, "A Drive request body could not be encoded: \(error)")
        }
    }
}
