import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The connection-level half of fault injection: a channel handler, installed on every mock
/// server's connections, that acts on a marker header the ``FaultInjectionMiddleware`` puts on
/// a response. The marker never reaches the client.
///
/// - `drop`: the connection closes instead of sending the response head;
/// - `drop-after=N`: the head and N bytes of the body go out, then the connection closes;
/// - `corrupt`: one byte of every body part is flipped (same length, same headers).
final class ConnectionFaultHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The marker header's name.
    static let marker = HTTPField.Name("x-stratus-connection-fault")!

    private enum Mode {
        case normal
        case dropAfter(remaining: Int)
        case corrupt
        case dropped
    }

    private var mode = Mode.normal

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch (part, mode) {
        case (_, .dropped):
            promise?.fail(ChannelError.ioOnClosedChannel)
        case (.head(var head), _):
            guard let instruction = head.headerFields[Self.marker] else {
                context.write(data, promise: promise)
                return
            }
            head.headerFields[Self.marker] = nil
            if instruction == "drop" {
                drop(context: context, promise: promise)
                return
            }
            if instruction == "corrupt" {
                mode = .corrupt
            } else if instruction.hasPrefix("drop-after="), let count = Int(instruction.dropFirst("drop-after=".count))
            {
                mode = .dropAfter(remaining: max(0, count))
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case (.body(var buffer), .corrupt):
            if buffer.readableBytes > 0 {
                let index = buffer.readerIndex + buffer.readableBytes / 2
                if let byte = buffer.getInteger(at: index, as: UInt8.self) {
                    buffer.setInteger(byte ^ 0xFF, at: index)
                }
            }
            context.write(wrapOutboundOut(.body(buffer)), promise: promise)
        case (.body(let buffer), .dropAfter(let remaining)):
            if buffer.readableBytes <= remaining {
                mode = .dropAfter(remaining: remaining - buffer.readableBytes)
                context.write(data, promise: promise)
            } else {
                if remaining > 0, let slice = buffer.getSlice(at: buffer.readerIndex, length: remaining) {
                    context.write(wrapOutboundOut(.body(slice)), promise: nil)
                }
                drop(context: context, promise: promise)
            }
        case (.end, .dropAfter):
            drop(context: context, promise: promise)
        case (.end, _):
            mode = .normal
            context.write(data, promise: promise)
        case (.body, .normal):
            context.write(data, promise: promise)
        }
    }

    private func drop(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        mode = .dropped
        context.flush()
        context.close(promise: nil)
        promise?.fail(ChannelError.ioOnClosedChannel)
    }
}
