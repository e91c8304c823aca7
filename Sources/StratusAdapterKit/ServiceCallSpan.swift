/// The span every adapter's ``/Stratus/Service`` call runs in (see
/// ``/Stratus/ServiceError/guarding(_:operation:_:)``).
enum ServiceCallSpan {
    /// The span's operation name.
    static let name = "stratus.service.call"
}
