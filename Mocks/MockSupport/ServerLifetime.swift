import ServiceLifecycle

/// What a route that holds a request open (a long poll) asks so that it lets go when its server
/// shuts down: a graceful shutdown waits for every open request, and a held one would keep it
/// waiting for the rest of its hold.
public enum ServerLifetime {
    /// Whether the server running the current request is shutting down.
    public static var isStopping: Bool { Task.isShuttingDownGracefully }
}
