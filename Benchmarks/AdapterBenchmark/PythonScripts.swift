/// The official SDKs' side, written to the workspace and run with each SDK's virtualenv.
/// Every script reads `BENCH_BASE`, `BENCH_TOKEN` and `BENCH_CA`, times its work from the
/// client's creation (after the imports) to its end, and prints the same `key=value` report as
/// the Stratus children, its own VmHWM included.
enum PythonScripts {
    static let common = """
        import os, sys, time
        from concurrent.futures import ThreadPoolExecutor
        base, token, ca = os.environ["BENCH_BASE"], os.environ["BENCH_TOKEN"], os.environ["BENCH_CA"] or None

        def report(start, **fields):
            print("seconds=%f" % (time.monotonic() - start))
            for key, value in fields.items():
                print("%s=%s" % (key, value))
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM:"):
                    print("peak-rss-kib=" + line.split()[1])

        def run_all(count, threads, one):
            if threads == 1:
                for i in range(count):
                    one(i)
            else:
                with ThreadPoolExecutor(threads) as pool:
                    for _ in pool.map(one, range(count)):
                        pass

        """

    /// `dropbox.py small COUNT THREADS FOLDER BYTES` or `dropbox.py feed CURSOR`.
    static let dropbox =
        common + """
            hostport = base.split("://", 1)[1]
            for name in ("DROPBOX_API_HOST", "DROPBOX_API_CONTENT_HOST", "DROPBOX_API_NOTIFY_HOST"):
                os.environ[name] = hostport
            import dropbox
            from dropbox.files import WriteMode

            start = time.monotonic()
            dbx = dropbox.Dropbox(oauth2_access_token=token, session=dropbox.create_session(max_connections=32, ca_certs=ca))
            if sys.argv[1] == "small":
                count, threads, folder, size = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
                data = bytes(i % 251 for i in range(size))
                run_all(count, threads, lambda i: dbx.files_upload(data, "/%s/%d.bin" % (folder, i), mode=WriteMode.overwrite))
                report(start, count=count)
            else:
                cursor, count, pages = sys.argv[2], 0, 0
                while True:
                    page = dbx.files_list_folder_continue(cursor)
                    count += len(page.entries)
                    pages += 1
                    cursor = page.cursor
                    if not page.has_more:
                        break
                report(start, count=count, pages=pages)
            """

    /// `drive.py small COUNT THREADS FOLDER BYTES` or `drive.py feed PAGE-TOKEN`.
    static let drive =
        common + """
            import io, json, threading
            import google.oauth2.credentials, google_auth_httplib2, httplib2
            from googleapiclient.discovery import build_from_document
            from googleapiclient.discovery_cache import get_static_doc
            from googleapiclient.http import MediaIoBaseUpload

            DISCOVERY = json.loads(get_static_doc("drive", "v3"))
            DISCOVERY["rootUrl"] = DISCOVERY["mtlsRootUrl"] = base + "/"
            credentials = google.oauth2.credentials.Credentials(token)

            def client():
                http = google_auth_httplib2.AuthorizedHttp(credentials, http=httplib2.Http(ca_certs=ca))
                return build_from_document(DISCOVERY, http=http)

            start = time.monotonic()
            drive = client()
            if sys.argv[1] == "small":
                count, threads, folder, size = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
                data = bytes(i % 251 for i in range(size))
                parent = drive.files().create(body={"name": folder, "mimeType": "application/vnd.google-apps.folder"}, fields="id").execute()["id"]
                local = threading.local()
                def one(i):
                    # httplib2 is not thread-safe: one client per thread.
                    if not hasattr(local, "drive"):
                        local.drive = drive if threads == 1 else client()
                    media = MediaIoBaseUpload(io.BytesIO(data), mimetype="application/octet-stream", resumable=False)
                    local.drive.files().create(body={"name": "%d.bin" % i, "parents": [parent]}, media_body=media, fields="id").execute()
                run_all(count, threads, one)
                report(start, count=count)
            else:
                page_token, fields, count, pages = sys.argv[2], sys.argv[3], 0, 0
                while page_token:
                    page = drive.changes().list(pageToken=page_token, pageSize=1000, fields=fields).execute()
                    count += len(page.get("changes", []))
                    pages += 1
                    page_token = page.get("nextPageToken")
                report(start, count=count, pages=pages)
            """

    /// `onedrive.py small COUNT THREADS FOLDER BYTES` or `onedrive.py feed DELTA-LINK`: msgraph-sdk
    /// as the OneDrive SDK check runs it (GraphServiceClient over GraphRequestAdapter with the
    /// default middleware, httpx trusting the mock's CA, a static bearer token for the Graph host
    /// only), small files by `PUT .../content` into the app folder, the feed by following
    /// `@odata.nextLink` from Stratus's delta link with `$top=1000`, as Stratus asks.
    static let onedrive =
        common + """
            import asyncio
            from urllib.parse import urlparse, urlunparse
            import httpx
            from kiota_abstractions.authentication import (
                AccessTokenProvider, AllowedHostsValidator, BaseBearerTokenAuthenticationProvider)
            from msgraph import GraphRequestAdapter, GraphServiceClient
            from msgraph.graph_request_adapter import options as graph_options
            from msgraph_core import GraphClientFactory

            # The SDK reaches Graph as localhost: the mock's download URLs say 127.0.0.1, a host
            # the token provider then gives no token (the content host refuses one).
            graph = base.replace("127.0.0.1", "localhost")
            host = urlparse(graph).hostname

            class StaticToken(AccessTokenProvider):
                def __init__(self):
                    self.validator = AllowedHostsValidator([host])

                async def get_authorization_token(self, uri, additional_authentication_context=None):
                    return token if self.validator.is_url_host_valid(uri) else ""

                def get_allowed_hosts_validator(self):
                    return self.validator

            def on_graph(link):
                # A link names the host it was asked under; ask it as localhost, 1,000 a page.
                parts = urlparse(link)._replace(netloc=urlparse(graph).netloc)
                if "$top=" not in parts.query:
                    parts = parts._replace(query=(parts.query + "&" if parts.query else "") + "$top=1000")
                return urlunparse(parts)

            async def main():
                start = time.monotonic()
                http = GraphClientFactory.create_with_default_middleware(
                    client=httpx.AsyncClient(verify=ca or True, timeout=120), options=graph_options)
                adapter = GraphRequestAdapter(BaseBearerTokenAuthenticationProvider(StaticToken()), http)
                adapter.base_url = graph + "/v1.0"
                client = GraphServiceClient(request_adapter=adapter)
                drive = await client.me.drive.get()
                items = client.drives.by_drive_id(drive.id).items
                app = await client.drives.by_drive_id(drive.id).special.by_drive_item_id("approot").get()
                if sys.argv[1] == "small":
                    count, threads, folder, size = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
                    data = bytes(i % 251 for i in range(size))
                    gate = asyncio.Semaphore(threads)

                    async def one(i):
                        async with gate:
                            await items.by_drive_item_id("%s:/%s/%d.bin:" % (app.id, folder, i)).content.put(data)

                    if threads == 1:
                        for i in range(count):
                            await one(i)
                    else:
                        await asyncio.gather(*(one(i) for i in range(count)))
                    report(start, count=count)
                else:
                    count, pages = 0, 0
                    page = await items.by_drive_item_id(app.id).delta.with_url(on_graph(sys.argv[2])).get()
                    while True:
                        count += len(page.value or [])
                        pages += 1
                        if not page.odata_next_link:
                            break
                        page = await items.by_drive_item_id(app.id).delta.with_url(on_graph(page.odata_next_link)).get()
                    report(start, count=count, pages=pages)

            asyncio.run(main())
            """
}
