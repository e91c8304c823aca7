import StratusHTTP

/// Percent-encoding as URL queries and `application/x-www-form-urlencoded` bodies use it: the
/// library's one encoder, ``/StratusHTTP/PercentEncoding``, so the mocks decode exactly what the
/// adapters encode.
public typealias PercentEncoding = StratusHTTP.PercentEncoding
