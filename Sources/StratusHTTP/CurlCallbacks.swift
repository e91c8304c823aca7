import CCurl

// C entry points libcurl calls on the event-loop thread. The context pointer is an unretained
// reference to the CurlTransfer; the event loop keeps the transfer alive in its table for as long
// as the easy handle is in the multi handle, so no callback can reach a freed transfer.

private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
    context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

let curlHeaderCallback: stratus_curl_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context) else { return 0 }
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

let curlWriteCallback: stratus_curl_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context) else { return 0 }
    let result = transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
    return result
}

let curlReadCallback: stratus_curl_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context) else { return STRATUS_CURL_READFUNC_ABORT }
    return transfer.sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

let curlSeekCallback: stratus_curl_seek_callback = { context, offset, origin in
    guard let transfer = transfer(context), origin == SEEK_SET else { return STRATUS_CURL_SEEKFUNC_FAIL }
    return transfer.rewindBody(to: Int64(offset)) ? STRATUS_CURL_SEEKFUNC_OK : STRATUS_CURL_SEEKFUNC_FAIL
}

let curlProgressCallback: stratus_curl_progress_callback = {
    context, downloadTotal, downloaded, uploadTotal, uploaded in
    guard let transfer = transfer(context) else { return 1 }
    transfer.reportProgress(
        sent: Int64(uploaded), toSend: Int64(uploadTotal), received: Int64(downloaded), toReceive: Int64(downloadTotal))
    return 0
}
